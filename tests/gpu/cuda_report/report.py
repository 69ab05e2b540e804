"""Reads the CUDA and NVTX tables of one report in the nsys export schema (a prof report or an
`nsys export --type sqlite` file) into plain Python values. Opens the file read-only; a table the
report lacks reads as empty, as nsys creates tables only when they have rows.

Enum ids are those of ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND; times are ns.
"""
import re
import sqlite3
from collections import namedtuple

COPY_KINDS = {1: "HtoD", 2: "DtoH", 8: "DtoD", 10: "PtoP"}
MEM_KINDS = {0: "pageable", 1: "pinned", 2: "device", 4: "managed"}
PUSH_POP = 59
START_END = 60

# One GPU operation: a kernel, copy, memset or graph launch. `label` names what it is (a kernel's
# short name, "memcpy HtoD pageable->device 16384B", "memset 4096B", "graph launch").
GpuOp = namedtuple("GpuOp", "table label start end stream correlation graph_node detail")
ApiCall = namedtuple("ApiCall", "name start end tid event_class")
Range = namedtuple("Range", "text start end tid")
Sync = namedtuple("Sync", "correlation sync_type stream event_id event_sync_id start end")
CudaEvent = namedtuple("CudaEvent", "correlation event_id event_sync_id stream")
# CUPTI's "not applicable" id in SYNCHRONIZATION.eventId / eventSyncId.
NO_EVENT = 4294967295
# What a row whose correlationId has no RUNTIME row is counted as.
NO_CALL = "(no RUNTIME call)"


def base_api_name(name):
    """cudaMemcpyAsync_v3020 -> cudaMemcpyAsync: the CUPTI callback name without its version."""
    return re.sub(r"_v\d+$", "", name)


def copy_label(copy_kind, src_kind, dst_kind, size):
    kind = COPY_KINDS.get(copy_kind, f"kind{copy_kind}")
    src = MEM_KINDS.get(src_kind, f"mem{src_kind}")
    dst = MEM_KINDS.get(dst_kind, f"mem{dst_kind}")
    return f"memcpy {kind} {src}->{dst} {size}B"


class Report:
    def __init__(self, path):
        self.path = path
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def rows(self, table, sql):
        """Rows of `sql` (which reads `table`), or none when the report lacks the table."""
        return self.db.execute(sql).fetchall() if table in self.tables else []

    def kernels(self):
        sql = """SELECT k.start, k.end, k.streamId, k.correlationId, k.graphNodeId, s.value, d.value,
                        k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ,
                        k.staticSharedMemory, k.dynamicSharedMemory
                 FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName
                 JOIN StringIds d ON d.id = k.demangledName"""
        return [GpuOp("KERNEL", r[5], r[0], r[1], r[2], r[3], r[4],
                      {"demangled": r[6], "grid": r[7:10], "block": r[10:13], "static_shared": r[13],
                       "dynamic_shared": r[14]})
                for r in self.rows("CUPTI_ACTIVITY_KIND_KERNEL", sql)]

    def copies(self):
        sql = """SELECT start, end, streamId, correlationId, graphNodeId, copyKind, srcKind, dstKind, bytes
                 FROM CUPTI_ACTIVITY_KIND_MEMCPY"""
        return [GpuOp("MEMCPY", copy_label(*r[5:9]), r[0], r[1], r[2], r[3], r[4], {"key": tuple(r[5:9])})
                for r in self.rows("CUPTI_ACTIVITY_KIND_MEMCPY", sql)]

    def memsets(self):
        sql = """SELECT start, end, streamId, correlationId, graphNodeId, value, bytes, memKind
                 FROM CUPTI_ACTIVITY_KIND_MEMSET"""
        return [GpuOp("MEMSET", f"memset {r[6]}B", r[0], r[1], r[2], r[3], r[4],
                      {"value": r[5], "bytes": r[6], "mem_kind": r[7]})
                for r in self.rows("CUPTI_ACTIVITY_KIND_MEMSET", sql)]

    def graph_launches(self):
        sql = """SELECT start, end, streamId, correlationId, graphExecId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"""
        return [GpuOp("GRAPH_TRACE", "graph launch", r[0], r[1], r[2], r[3], None, {"graph_exec": r[4]})
                for r in self.rows("CUPTI_ACTIVITY_KIND_GRAPH_TRACE", sql)]

    def graph_events(self):
        """(eventClass, name, graphId, originalGraphId, graphExecId) per CUDA_GRAPH_EVENTS row, in time order."""
        sql = """SELECT eventClass, s.value, graphId, originalGraphId, graphExecId FROM CUDA_GRAPH_EVENTS e
                 JOIN StringIds s ON s.id = e.nameId ORDER BY start"""
        return self.rows("CUDA_GRAPH_EVENTS", sql)

    def gpu_ops(self):
        return self.kernels() + self.copies() + self.memsets() + self.graph_launches()

    def api_calls(self):
        """RUNTIME rows as {correlationId: [ApiCall, ...]} (a list, so duplicates can be caught)."""
        sql = """SELECT r.correlationId, s.value, r.start, r.end, r.globalTid, r.eventClass
                 FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId"""
        calls = {}
        for r in self.rows("CUPTI_ACTIVITY_KIND_RUNTIME", sql):
            calls.setdefault(r[0], []).append(ApiCall(*r[1:]))
        return calls

    def syncs(self):
        """SYNCHRONIZATION rows as Sync tuples."""
        sql = """SELECT correlationId, syncType, streamId, eventId, eventSyncId, start, end
                 FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"""
        return [Sync(*r) for r in self.rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sql)]

    def cuda_events(self):
        """CUDA_EVENT rows (one per cudaEventRecord) as CudaEvent tuples."""
        sql = "SELECT correlationId, eventId, eventSyncId, streamId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"
        return [CudaEvent(*r) for r in self.rows("CUPTI_ACTIVITY_KIND_CUDA_EVENT", sql)]

    def ranges(self, event_type=PUSH_POP):
        """NVTX ranges of one eventType; a registered string's text is read through textId."""
        sql = f"""SELECT COALESCE(n.text, s.value), n.start, n.end, n.globalTid FROM NVTX_EVENTS n
                  LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = {int(event_type)}"""
        return [Range(*r) for r in self.rows("NVTX_EVENTS", sql)]

    def stream_ids(self):
        return {r[0] for r in self.rows("TARGET_INFO_CUDA_STREAM", "SELECT streamId FROM TARGET_INFO_CUDA_STREAM")}

    def gpu_names(self):
        return [r[0] for r in self.rows("TARGET_INFO_GPU", "SELECT name FROM TARGET_INFO_GPU")]
