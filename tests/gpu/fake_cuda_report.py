"""Writes small hand-made reports with prof's own DDL (storage/schema/tables/*.sql) for the tests of
check_cuda_report.py. A FakeReport keeps one clock: each call advances it, so an API call always
starts before the GPU work it launches unless a test says otherwise.
"""
import os
import sqlite3

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "storage", "schema", "tables")
TABLES = ["stringids", "nvtx_events", "cupti_activity_kind_runtime", "cupti_activity_kind_kernel",
          "cupti_activity_kind_memcpy", "cupti_activity_kind_memset", "cupti_activity_kind_synchronization",
          "cupti_activity_kind_graph_trace", "target_info_gpu", "target_info_cuda_stream"]
PID = 4242


def global_tid(tid):
    return (1 << 48) | (PID << 24) | tid


class FakeReport:
    def __init__(self, path):
        self.db = sqlite3.connect(path)
        for table in TABLES:
            with open(os.path.join(SCHEMA_DIR, f"{table}.sql")) as ddl:
                self.db.executescript(ddl.read())
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
