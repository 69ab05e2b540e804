"""Compares prof's report with nsys's export of the same program: per section a table of counts
with both columns and their difference, then one PASS/FAIL line. GPU operations and NVTX ranges
must be equal; API calls are listed with their differences and names only one side has are
flagged (`<-- only nsys` / `<-- only prof`) without failing; total kernel time must agree to 5%.

A program whose event use depends on timing (PyTorch's pinned-memory allocator creates events as
it needs them and polls them with cudaEventQuery) is compared with timing_dependent=True: two runs
of it differ in queries and event ids, so queries and ids are shown as INFO and the rest must be
equal.
"""
from collections import Counter

from report import NO_CALL, PUSH_POP, START_END, copy_label

KERNEL_TIME_TOLERANCE = 0.05
# Tiny programs' kernels vary by more than 5% from run to run; below this total the absolute
# difference is what must be small.
KERNEL_TIME_SLACK_NS = 1000
# CUPTI's context synchronizations (cudaDeviceSynchronize): prof keeps them, nsys writes none.
CONTEXT_SYNC = 4
# The calls whose number depends on how long the GPU takes: polls of events and streams.
QUERY_APIS = {"cudaEventQuery_v3020", "cudaStreamQuery_v3020", "cuEventQuery", "cuStreamQuery"}
# Sections shown but not required to be equal: nsys's demangler spells function template
# parameters as "T2, T3" where prof prints the substituted types (docs/cuda.md, Kernel names).
INFO_ONLY = {"kernels by demangled name"}
NAME_WIDTH = 72


def _name(key):
    text = key if isinstance(key, str) else " ".join(str(k) for k in key)
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 3] + "..."


def print_table(title, prof, nsys, flag_missing=False):
    print(f"\n== {title}")
    print(f"{'':<{NAME_WIDTH}} {'prof':>9} {'nsys':>9} {'diff':>9}")
    for key in sorted(set(prof) | set(nsys), key=str):
        p, n = prof.get(key, 0), nsys.get(key, 0)
        flag = ""
        if flag_missing and key not in prof:
            flag = "  <-- only nsys"
        elif flag_missing and key not in nsys:
            flag = "  <-- only prof"
        elif p != n:
            flag = "  <--"
        print(f"{_name(key):<{NAME_WIDTH}} {p:>9} {n:>9} {p - n:>+9}{flag}")


def sections(report, timing_dependent=False):
    """{section title: Counter} of everything compared by count."""
    calls = report.api_calls()
    kernels = report.kernels()

    def api_of(correlation):
        return calls[correlation][0].name if correlation in calls else NO_CALL

    syncs = [s for s in report.syncs() if s.sync_type != CONTEXT_SYNC]
    if timing_dependent:
        # A stream query's row has no RUNTIME call (nsys writes none): NO_CALL is a query too.
        queries = [s for s in syncs if api_of(s.correlation) in QUERY_APIS | {NO_CALL}]
        sync_sections = {
            "SYNCHRONIZATION but queries, by API, syncType, stream": Counter(
                f"{api_of(s.correlation)} syncType {s.sync_type} stream {s.stream}"
                for s in syncs if s not in queries),
            "SYNCHRONIZATION of queries, by API, syncType": Counter(
                f"{api_of(s.correlation)} syncType {s.sync_type}" for s in queries),
            "CUDA_EVENT by API, stream": Counter(
                f"{api_of(e.correlation)} stream {e.stream}" for e in report.cuda_events()),
            "CUDA_EVENT eventIds": Counter(f"event {e.event_id}" for e in report.cuda_events()),
        }
    else:
        sync_sections = {
            "SYNCHRONIZATION by API, syncType, stream, eventId, eventSyncId": Counter(
                f"{api_of(s.correlation)} syncType {s.sync_type} stream {s.stream} "
                f"event {s.event_id} sync {s.event_sync_id}" for s in syncs),
            "CUDA_EVENT by API, stream, eventId, eventSyncId": Counter(
                f"{api_of(e.correlation)} stream {e.stream} event {e.event_id} sync {e.event_sync_id}"
                for e in report.cuda_events()),
        }

    ranges = Counter(f"{r.text} [push/pop]" for r in report.ranges(PUSH_POP))
    ranges.update(f"{r.text} [start/end]" for r in report.ranges(START_END))
    return {
        "kernels by short name": Counter(op.label for op in kernels),
        "kernels by demangled name": Counter(op.detail["demangled"] for op in kernels),
        "kernels with graphNodeId": Counter({"kernels": sum(op.graph_node is not None for op in kernels)}),
        "memcpy by kind, src -> dst, bytes": Counter(copy_label(*op.detail["key"]) for op in report.copies()),
        "memset by memKind, bytes": Counter(f"memKind {op.detail['mem_kind']} {op.detail['bytes']}B"
                                            for op in report.memsets()),
        "graph launches (GRAPH_TRACE)": Counter({"rows": len(report.graph_launches())}),
        "graph events (CUDA_GRAPH_EVENTS): class name graph original exec": Counter(
            " ".join(str(value) for value in event) for event in report.graph_events()),
        **sync_sections,
        "NVTX ranges by name": ranges,
    }


def api_counts(report):
    return Counter(call.name for calls in report.api_calls().values() for call in calls)


def total_kernel_ns(report):
    return sum(op.end - op.start for op in report.kernels())


def compare(prof, nsys, results, timing_dependent=False):
    prof_sections = sections(prof, timing_dependent)
    nsys_sections = sections(nsys, timing_dependent)
    info_only = INFO_ONLY | ({"SYNCHRONIZATION of queries, by API, syncType", "CUDA_EVENT eventIds"}
                             if timing_dependent else set())
    for title, prof_counts in prof_sections.items():
        nsys_counts = nsys_sections[title]
        print_table(title, prof_counts, nsys_counts)
        detail = f"{sum(prof_counts.values())} prof, {sum(nsys_counts.values())} nsys"
        if title in info_only:
            results.info(f"{title}: same as nsys: {+prof_counts == +nsys_counts}", detail)
        else:
            results.report(+prof_counts == +nsys_counts, f"{title}: equal to nsys", detail)
    prof_api, nsys_api = api_counts(prof), api_counts(nsys)
    print_table("API calls by name (CUPTI_ACTIVITY_KIND_RUNTIME)", prof_api, nsys_api, flag_missing=True)
    only_nsys = sorted(set(nsys_api) - set(prof_api))
    only_prof = sorted(set(prof_api) - set(nsys_api))
    differing = sorted(n for n in set(prof_api) & set(nsys_api) if prof_api[n] != nsys_api[n])
    results.info("API names only nsys has", only_nsys or "none")
    results.info("API names only prof has", only_prof or "none")
    results.info("API names with different counts", differing or "none")
    compare_kernel_time(prof, nsys, results)


def compare_kernel_time(prof, nsys, results):
    p, n = total_kernel_ns(prof), total_kernel_ns(nsys)
    ratio = (p - n) / n if n else (0.0 if p == 0 else float("inf"))
    results.report(abs(ratio) <= KERNEL_TIME_TOLERANCE or abs(p - n) <= KERNEL_TIME_SLACK_NS,
                   "total GPU kernel time within 5% (or 1 us) of nsys",
                   f"prof {p} ns, nsys {n} ns, {ratio:+.2%}")
