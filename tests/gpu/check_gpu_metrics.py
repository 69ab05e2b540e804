"""Checks prof's GPU metrics (--gpu-metrics-devices) on gpu_metrics_workload.py against what the
workload did and against nsys's report of the same run (tests/gpu/run.sh, section gpu_metrics).

usage: check_gpu_metrics.py PROF.sqlite NSYS.sqlite [--frequency HZ] [--gpu ID]
Prints PASS/FAIL lines, prof's and nsys's means per NVTX range side by side, and a last summary
line; exits 1 when a check fails.
"""

import argparse
import sqlite3
import sys

RANGES = ("copy", "gemm", "idle")
DRAM = ("DRAM Read Bandwidth [Throughput %]", "DRAM Write Bandwidth [Throughput %]")
TENSOR = "Tensor Active [Throughput %]"
SMS = "SMs Active [Throughput %]"
WARPS = "Compute Warps in Flight [Throughput %]"
UNALLOCATED = "Unallocated Warps in Active SMs [Throughput %]"


def tables(db):
    return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def ranges(db):
    """{name: (start, end)} of the workload's NVTX push/pop ranges."""
    text = "COALESCE(e.text, (SELECT value FROM StringIds WHERE id = e.textId))"
    found = {}
    for name, start, end in db.execute(
        f"SELECT {text}, e.start, e.end FROM NVTX_EVENTS e WHERE e.end IS NOT NULL"
    ):
        if name in RANGES:
            found[name] = (start, end)
    return found


def metric_ids(db, gpu):
    """{metric name: [(typeId, metricId)]} of the GPU."""
    ids = {}
    for type_id, metric_id, name in db.execute(
        "SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS"
    ):
        if type_id & 0xFF == gpu:
            ids.setdefault(name, []).append((type_id, metric_id))
    return ids


def values(db, ids, start, end):
    """The metric's values whose timestamps lie in [start, end]."""
    found = []
    for type_id, metric_id in ids:
        found += [
            row[0]
            for row in db.execute(
                "SELECT value FROM GPU_METRICS WHERE typeId = ? AND metricId = ? "
                "AND timestamp BETWEEN ? AND ?",
                (type_id, metric_id, start, end),
            )
        ]
    return found


def means(db, gpu):
    """({range: {metric: mean}}, {range: sample count of SMs Active}, {range: seconds})."""
    spans = ranges(db)
    ids = metric_ids(db, gpu)
    table, counts, seconds = {}, {}, {}
    for name, (start, end) in spans.items():
        table[name] = {}
        for metric, metric_ids_of in ids.items():
            found = values(db, metric_ids_of, start, end)
            if found:
                table[name][metric] = sum(found) / len(found)
        counts[name] = len(values(db, ids.get(SMS, []), start, end))
        seconds[name] = (end - start) / 1e9
    return table, counts, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("prof")
    parser.add_argument("nsys")
    parser.add_argument("--frequency", type=float, default=10000)
    parser.add_argument("--gpu", type=int, default=0)
    arguments = parser.parse_args()
    failures = []

    def check(name, ok, detail):
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
        if not ok:
            failures.append(name)

    prof = sqlite3.connect(arguments.prof)
    if not {"GPU_METRICS", "TARGET_INFO_GPU_METRICS"} <= tables(prof):
        check("prof wrote GPU_METRICS", False, "no GPU_METRICS table")
        print("summary: no GPU metrics in prof's report")
        return 1
    prof_means, prof_counts, seconds = means(prof, arguments.gpu)
    check("the workload's ranges", set(prof_means) == set(RANGES), f"found {sorted(prof_means)}")
    nsys = sqlite3.connect(arguments.nsys)
    have_nsys = {"GPU_METRICS", "TARGET_INFO_GPU_METRICS", "NVTX_EVENTS"} <= tables(nsys)
    nsys_means = means(nsys, arguments.gpu)[0] if have_nsys else {}

    if set(prof_means) == set(RANGES):
        dram = sum(prof_means["copy"].get(metric, 0) for metric in DRAM)
        check("DRAM read+write high in copy", dram >= 50, f"{dram:.1f} % (>= 50)")
        tensor = prof_means["gemm"].get(TENSOR, 0)
        check("Tensor Active high in gemm", tensor >= 40, f"{tensor:.1f} % (>= 40)")
        idle = prof_means["idle"].get(SMS, 100)
        check("SMs Active about 0 in idle", idle <= 5, f"{idle:.1f} % (<= 5)")
        # An elementwise copy kernel keeps most warp slots busy (an H100: 80 %, nsys's 80.5 %).
        warps = prof_means["copy"].get(WARPS, 0)
        check("Compute Warps high in copy", warps >= 50, f"{warps:.1f} % (>= 50)")
        for name in ("copy", "gemm"):
            mine = prof_means[name].get(UNALLOCATED)
            theirs = nsys_means.get(name, {}).get(UNALLOCATED)
            if mine is not None and theirs is not None:
                check(f"Unallocated Warps in {name} within 5 points of nsys's",
                      abs(mine - theirs) <= 5, f"prof {mine:.1f}, nsys {theirs:.1f}")
        for name in RANGES:
            expected = arguments.frequency * seconds[name]
            ratio = prof_counts[name] / expected if expected else 0
            check(
                f"samples in {name} = frequency x duration",
                0.9 <= ratio <= 1.1,
                f"{prof_counts[name]} samples in {seconds[name]:.3f} s, {ratio:.3f} of expected",
            )
    prof_names = set(metric_ids(prof, arguments.gpu))
    if have_nsys:
        nsys_names = set(metric_ids(nsys, arguments.gpu))
        extra = sorted(prof_names - nsys_names)
        check("prof's metric names are nsys's", not extra, f"not in nsys's: {extra or 'none'}")
    else:
        check("nsys wrote GPU metrics to compare with", False, "no GPU_METRICS in nsys's export")

    print(f"{'range':6} {'metric':48} {'prof':>14} {'nsys':>14}")
    for name in RANGES:
        for metric in sorted(prof_means.get(name, {})):
            mine = prof_means[name][metric]
            theirs = nsys_means.get(name, {}).get(metric)
            theirs_text = f"{theirs:14.1f}" if theirs is not None else f"{'-':>14}"
            print(f"{name:6} {metric:48} {mine:14.1f} {theirs_text}")
    print(f"summary: {len(failures)} failed: {', '.join(failures) or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
