"""Writes small hand-made reports in nsys's schema (the columns prof's schema test holds prof to,
tests/storage/data/nsys_columns.tsv) for the tests of
check_cuda_report.py. A FakeReport keeps one clock: each call advances it, so an API call always
starts before the GPU work it launches unless a test says otherwise.
"""
import os
import sqlite3

COLUMNS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "storage", "data", "nsys_columns.tsv")
TABLES = ["StringIds", "NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL",
          "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
          "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "TARGET_INFO_GPU", "TARGET_INFO_CUDA_STREAM"]
PID = 4242


def global_tid(tid):
    return (1 << 48) | (PID << 24) | tid


def create_table_sql(table):
    """CREATE TABLE for `table` from the tsv's rows: table, cid, name, type, notnull, pk."""
    columns = []
    with open(COLUMNS) as rows:
        for line in rows:
            fields = line.rstrip("\n").split("\t")
            if line.startswith("#") or fields[0] != table:
                continue
            _, _, name, sql_type, not_null, pk = fields
            columns.append(f"{name} {sql_type}" + (" NOT NULL" if not_null == "1" else "") +
                           (" PRIMARY KEY" if pk == "1" else ""))
    return f"CREATE TABLE {table} ({', '.join(columns)})"


class FakeReport:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        for table in TABLES:
            self.db.execute(create_table_sql(table))
        self.strings = {}
        self.clock = 1000
        self.correlation = 0
        self.streams = set()
        self.call_times = {}  # correlationId -> (start, end) of its API call
        self.db.execute("INSERT INTO TARGET_INFO_GPU (vmId, id, name) VALUES (?, 0, 'NVIDIA H200')", (1 << 48,))

    def tick(self, ns=100):
        self.clock += ns
        return self.clock

    def string(self, value):
        if value not in self.strings:
            self.strings[value] = len(self.strings)
            self.db.execute("INSERT INTO StringIds VALUES (?, ?)", (self.strings[value], value))
        return self.strings[value]

    def api(self, tid, name, record=True):
        """A RUNTIME call on thread `tid`; returns its correlationId (left out when not record)."""
        self.correlation += 1
        start, end = self.tick(), self.tick(50)
        self.call_times[self.correlation] = (start, end)
        if record:
            self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
                            "correlationId, nameId, returnValue) VALUES (?, ?, 0, ?, ?, ?, 0)",
                            (start, end, global_tid(tid), self.correlation, self.string(name)))
        return self.correlation

    def kernel(self, correlation, name, stream, grid, block, static_shared=0, dynamic_shared=0, start=None):
        start = self.tick() if start is None else start
        self.add_stream(stream)
        self.db.execute(
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
            "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
            "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) "
            "VALUES (?, ?, 0, 1, ?, ?, ?, ?, ?, 16, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?)",
            (start, start + 2000, stream, correlation, global_tid(0), self.string(f"{name}(float *, int)"),
             self.string(name), *grid, *block, static_shared, dynamic_shared, correlation))

    def sync(self, correlation, stream, sync_type, after_call=False):
        """A sync row inside its call (after it, with `after_call`), naming no event."""
        call_start, call_end = self.call_times[correlation]
        start, end = (self.tick(), self.tick(10)) if after_call else (call_start + 5, call_end - 5)
        self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, "
                        "correlationId, syncType, eventId, eventSyncId) VALUES (?, ?, 0, 1, ?, ?, ?, ?, ?)",
                        (start, end, stream, correlation, sync_type, 4294967295, 4294967295))

    def push_pop(self, tid, text, start, end):
        self.db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
                        "VALUES (?, ?, 59, ?, ?, 0)", (start, end, text, global_tid(tid)))

    def add_stream(self, stream):
        if stream not in self.streams:
            self.streams.add(stream)
            self.db.execute("INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?, 0, 1, ?, 1, 0, 2)", (stream, PID))

    def close(self):
        self.db.commit()
        self.db.close()
