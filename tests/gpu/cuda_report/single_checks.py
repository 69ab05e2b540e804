"""Checks one report of a tests/gpu/cuda program against its expectations (expectations.py):
exact counts of GPU operations, synchronizations, API calls and NVTX ranges, and the invariants
that tie them together: every GPU operation has its RUNTIME call (same correlationId, started
before the operation), lies in the NVTX range its call was made in, on the expected streams and
threads. Each assertion prints one line through Results.
"""
from collections import Counter

from report import NO_CALL, NO_EVENT, PUSH_POP, base_api_name


def innermost_range(ranges_by_tid, call):
    """Text of the innermost push/pop range on the call's thread that encloses the whole call."""
    enclosing = [r for r in ranges_by_tid.get(call.tid, [])
                 if r.end is not None and r.start <= call.start and call.end <= r.end]
    return max(enclosing, key=lambda r: r.start).text if enclosing else "(no range)"


class SingleReportChecks:
    def __init__(self, report, spec, results):
        self.report, self.spec, self.results = report, spec, results
        self.ops = report.gpu_ops()
        self.calls = report.api_calls()
        self.ranges = report.ranges(PUSH_POP)

    def run(self):
        self.check_timestamps()
        self.check_runtime_links()
        self.check_kernels()
        self.check_copies_and_memsets()
        self.check_graphs()
        self.check_syncs()
        self.check_api_calls()
        self.check_nvtx()
        self.check_streams()
        self.check_threads()
        self.check_target_info()

    def call_of(self, op):
        """The op's RUNTIME call, or None when it has none (or several: reported separately)."""
        calls = self.calls.get(op.correlation, [])
        return calls[0] if len(calls) == 1 else None

    def check_timestamps(self):
        bad = [op for op in self.ops if op.end < op.start]
        self.results.report(not bad, "every GPU operation has end >= start", f"{len(bad)} of {len(self.ops)} do not")

    def check_runtime_links(self):
        duplicated = [c for c, calls in self.calls.items() if len(calls) > 1]
        self.results.report(not duplicated, "RUNTIME correlationIds are unique", f"{len(duplicated)} repeated")
        for table in ("KERNEL", "MEMCPY", "MEMSET", "GRAPH_TRACE"):
            ops = [op for op in self.ops if op.table == table]
            unlinked = [op for op in ops if self.call_of(op) is None]
            late = [op for op in ops if op not in unlinked and self.call_of(op).start >= op.start]
            self.results.report(not unlinked, f"every {table} row has a RUNTIME row with its correlationId",
                                f"{len(ops) - len(unlinked)} of {len(ops)}")
            self.results.report(not late, f"every {table} row starts after its RUNTIME call",
                                f"{len(late)} of {len(ops)} start before the call")

    def check_kernels(self):
        kernels = [op for op in self.ops if op.table == "KERNEL"]
        shapes = Counter((op.label, tuple(op.detail["grid"]), tuple(op.detail["block"]),
                          op.detail["static_shared"], op.detail["dynamic_shared"]) for op in kernels)
        names = Counter()
        for shape, count in self.spec["kernel_shapes"].items():
            names[shape[0]] += count
        self.results.equal("kernels per name", dict(names), Counter(op.label for op in kernels))
        self.results.equal("kernels per (name, grid, block, static shared, dynamic shared)",
                           self.spec["kernel_shapes"], shapes)

    def check_copies_and_memsets(self):
        copies = Counter(op.detail["key"] for op in self.ops if op.table == "MEMCPY")
        self.results.equal("copies per (copyKind, srcKind, dstKind, bytes)", self.spec["copies"], copies)
        memsets = Counter((op.detail["value"], op.detail["bytes"]) for op in self.ops if op.table == "MEMSET")
        self.results.equal("memsets per (value, bytes)", self.spec["memsets"], memsets)

    def check_graphs(self):
        launches = [op for op in self.ops if op.table == "GRAPH_TRACE"]
        self.results.equal("graph launches (GRAPH_TRACE rows)", self.spec["graph_launches"], len(launches))
        if self.spec["graph_execs"] is not None:
            execs = {op.detail["graph_exec"] for op in launches}
            self.results.equal("distinct graphExecIds", self.spec["graph_execs"], len(execs))
        created = {event[4] for event in self.report.graph_events() if event[1] == "GraphExec Creation"}
        launched = {op.detail["graph_exec"] for op in launches}
        self.results.equal("graphExecIds launched without a GraphExec Creation row", set(), launched - created)
        for table, (count, distinct) in self.spec["graph_nodes"].items():
            nodes = [op.graph_node for op in self.ops if op.table == table and op.graph_node is not None]
            self.results.equal(f"{table} rows with graphNodeId (rows, distinct ids)", (count, distinct),
                               (len(nodes), len(set(nodes))))

    def check_syncs(self):
        by_api, types, outside = Counter(), Counter(), []
        syncs = self.report.syncs()
        for sync in syncs:
            calls = self.calls.get(sync.correlation, [])
            name = base_api_name(calls[0].name) if calls else NO_CALL
            by_api[name] += 1
            types[(name, sync.sync_type)] += 1
            if calls and not calls[0].start <= sync.start <= sync.end <= calls[0].end:
                outside.append(name)
        unasserted = self.spec["syncs_unasserted"]
        asserted = {name: count for name, count in by_api.items() if name not in unasserted}
        self.results.equal("SYNCHRONIZATION rows per API", self.spec["syncs"], asserted)
        self.results.info("SYNCHRONIZATION rows per (API, syncType)", sorted(types.items()))
        for name in unasserted:
            self.results.info(f"SYNCHRONIZATION rows of {name} (not asserted)", by_api.get(name, 0))
        self.results.report(not outside, "every SYNCHRONIZATION row with a RUNTIME call lies inside it",
                            f"{len(outside)} of {len(syncs)} do not: {sorted(set(outside))}")
        self.check_events(syncs)

    def check_events(self, syncs):
        events = self.report.cuda_events()
        by_api = Counter()
        for event in events:
            calls = self.calls.get(event.correlation, [])
            by_api[base_api_name(calls[0].name) if calls else NO_CALL] += 1
        self.results.equal("CUDA_EVENT rows per API", self.spec["events"], dict(by_api))
        sync_ids = [event.event_sync_id for event in events]
        self.results.report(sorted(sync_ids) == list(range(1, len(events) + 1)),
                            "CUDA_EVENT eventSyncIds are 1..n, each once", str(sorted(sync_ids)[:8]))
        recorded = {(event.event_id, event.event_sync_id) for event in events}
        waits = [s for s in syncs if s.event_sync_id != NO_EVENT]
        unmatched = [s for s in waits if (s.event_id, s.event_sync_id) not in recorded]
        self.results.report(not unmatched, "every sync on a recorded event names a CUDA_EVENT row's ids",
                            f"{len(waits) - len(unmatched)} of {len(waits)}")

    def check_api_calls(self):
        counts = Counter(base_api_name(call.name) for calls in self.calls.values() for call in calls)
        listed = {name: counts.get(name, 0) for name in self.spec["api"]}
        self.results.equal("RUNTIME calls per API (base name)", self.spec["api"], listed)
        others = sorted((name, n) for name, n in counts.items() if name not in self.spec["api"])
        self.results.info("other RUNTIME names", others or "none")

    def check_nvtx(self):
        self.results.equal("NVTX push/pop ranges per name", self.spec["nvtx_ranges"],
                           Counter(r.text for r in self.ranges))
        by_tid = {}
        for r in self.ranges:
            by_tid.setdefault(r.tid, []).append(r)
        placed = Counter()
        for op in self.ops:
            call = self.call_of(op)
            if call is not None:
                placed[(innermost_range(by_tid, call), op.label, base_api_name(call.name))] += 1
        self.results.equal("GPU operations per (NVTX range of the call, label, API)", self.spec["ops"], placed)

    def check_streams(self):
        streams = {op.stream for op in self.ops}
        if self.spec["op_streams"] is not None:
            self.results.equal("distinct streams of GPU operations", self.spec["op_streams"], len(streams))
        else:
            self.results.info("distinct streams of GPU operations (not asserted)", len(streams))
        if self.spec["stream_groups"] is not None:
            self.check_groups("stream", self.spec["stream_groups"], lambda op: op.stream)

    def check_threads(self):
        tids = {self.call_of(op).tid for op in self.ops if self.call_of(op)}
        self.results.equal("distinct threads launching GPU operations", self.spec["api_threads"], len(tids))
        self.check_groups("thread", self.spec["thread_groups"],
                          lambda op: self.call_of(op).tid if self.call_of(op) else None)

    def check_groups(self, what, groups, key_of):
        """Each group's operations share one `what`, and no two groups share one."""
        keys = []
        for labels in groups:
            # Operations without their call are already reported, and have no thread to compare.
            values = {key_of(op) for op in self.ops if op.label in labels} - {None}
            self.results.report(len(values) == 1, f"one {what} for {', '.join(labels[:3])}"
                                f"{' ...' if len(labels) > 3 else ''}", f"{len(values)} distinct")
            keys.extend(values)
        if len(groups) > 1:
            self.results.report(len(keys) == len(set(keys)), f"each group on its own {what}",
                                f"{len(set(keys))} distinct for {len(groups)} groups")

    def check_target_info(self):
        known = self.report.stream_ids()
        missing = sorted({op.stream for op in self.ops} - known)
        self.results.report(not missing, "every stream of a GPU operation is in TARGET_INFO_CUDA_STREAM",
                            f"missing {missing}" if missing else f"{len(known)} streams listed")
        names = self.report.gpu_names()
        self.results.report(bool(names) and all(names), "TARGET_INFO_GPU names the GPU", str(names))
