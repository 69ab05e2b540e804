#!/usr/bin/env python3
"""prof's benchmark suite (docs/performance.md): runs every workload with no profiler, under prof,
under nsys and under PyTorch Profiler where they apply, interleaved, prints one table with medians,
min-max and the budget lines, and writes the same as JSON. Workloads or modes this machine cannot
run (no GPU, no torch, no nsys, a workload not built) are skipped with a "skipped: ..." line.
Benchmarks are never timed tests: --quick (small sizes, 2 rounds) only shows that it all works.

Usage: run.py [--quick] [--only NAME,...] [--runs N] [--prof PATH] [--nsys PATH|none]
              [--device-libs DIR] [--json OUT] [--work DIR] [--events N] [--events-rate R]
              [--timeout S]
"""
import argparse
import json
import os
import platform
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suite import budget, table, tools as machine  # noqa: E402
from suite.rounds import run_once, run_rounds  # noqa: E402
from suite.summary import summarize  # noqa: E402
from suite.workloads import WORKLOADS, Sizes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 2 rounds: a smoke run")
    parser.add_argument("--only", help="comma-separated workloads: " +
                        ",".join(w.name for w in WORKLOADS))
    parser.add_argument("--runs", type=int, help="rounds per workload (default 5, --quick 2)")
    default_prof = next((p for p in (os.path.join(ROOT, b, "bin", "prof")
                                     for b in ("build-gpu", "build", "build-bench"))
                         if os.path.exists(p)), os.path.join(ROOT, "build", "bin", "prof"))
    parser.add_argument("--prof", default=default_prof, help="prof binary; workloads next to it")
    parser.add_argument("--nsys", help="nsys binary, or 'none' (default: $NSYS, PATH, the H200's)")
    parser.add_argument("--device-libs", default=os.path.join(ROOT, ".device-libs"),
                        help="LD_LIBRARY_PATH for nsys's importer, where it exists")
    parser.add_argument("--json", help="where the JSON goes (default: $OUT/bench-results.json on "
                        "the device machine, else bench-results.json next to prof's bin/)")
    parser.add_argument("--work", help="directory for reports (default: a temporary one, removed)")
    parser.add_argument("--events", type=int, help="nvtx_events ranges (default 10M, --quick 200k)")
    parser.add_argument("--events-rate", type=float, default=2e6,
                        help="nvtx_events ranges per second, 0 unpaced (default 2M)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds after which one run is killed and counted as failed")
    return parser.parse_args()


def selected(only):
    if not only:
        return list(WORKLOADS)
    names = only.split(",")
    unknown = set(names) - {w.name for w in WORKLOADS}
    if unknown:
        sys.exit(f"unknown workload(s): {', '.join(sorted(unknown))}")
    return [w for w in WORKLOADS if w.name in names]


def stats_inputs(workload, tools, sizes, kept, work_dir, timeout_s):
    """{nvtx_events mode: its SQLite report} for the modes of workload that read one: nvtx_events'
    last round's when it ran, else one fresh run of that mode."""
    source = next(w for w in WORKLOADS if w.name == "nvtx_events")
    wanted = {mode.input for mode in workload.modes}
    inputs = {m: path for m, path in kept.get(source.name, {}).items() if m in wanted}
    os.makedirs(work_dir, exist_ok=True)
    for mode in source.modes:
        if mode.name not in wanted or mode.name in inputs or tools.skip_reason(mode.needs):
            continue
        prefix = os.path.join(work_dir, f"input-{mode.name}")
        command = mode.command(tools, source.program(tools, sizes), prefix)
        if "error" not in run_once(mode, command, prefix, timeout_s):
            inputs[mode.name] = command.sqlite
    return inputs


def run_workload(workload, tools, sizes, runs, kept, work_dir, timeout_s):
    why = tools.skip_reason(workload.needs)
    if why:
        return {"skipped": why}
    if any(mode.input for mode in workload.modes):
        program = stats_inputs(workload, tools, sizes, kept, os.path.join(work_dir, "inputs"),
                               timeout_s)
    else:
        program = workload.program(tools, sizes)
    modes, skipped = [], {}
    for mode in workload.modes:
        reason = tools.skip_reason(mode.needs)
        if mode.input and not reason and mode.input not in program:
            reason = f"no {mode.input} report of nvtx_events"
        if reason:
            skipped[mode.name] = f"{mode.name} mode: {reason}"
        else:
            modes.append(mode)
    if not modes:
        return {"skipped": "; ".join(skipped.values()), "skipped_modes": {}}
    records, kept[workload.name] = run_rounds(workload, modes, tools, program, runs,
                                              os.path.join(work_dir, workload.name), timeout_s)
    return {"skipped_modes": skipped, "records": records, "summary": summarize(records)}


def write_json(path, args, tools, runs, results, judged):
    document = {"quick": args.quick, "runs": runs, "host": platform.node(), "cpus": os.cpu_count(),
                "prof": tools.prof, "nsys": tools.nsys, "missing": tools.missing,
                "workloads": results, "budget": judged}
    with open(path, "w") as output:
        json.dump(document, output, indent=1)


def main():
    args = parse_args()
    tools = machine.discover(args.prof, args.nsys, args.device_libs)
    if "prof" in tools.missing:
        sys.exit(tools.missing["prof"])
    sizes = Sizes(quick=args.quick, events=args.events, events_rate=args.events_rate)
    runs = args.runs or (2 if args.quick else 5)
    if not args.json:  # $OUT: the folder the device tool brings back (tests/gpu/run.sh uses it too)
        folder = os.environ.get("OUT") or os.path.dirname(tools.bin_dir)
        args.json = os.path.join(folder, "bench-results.json")
    work_dir = args.work or tempfile.mkdtemp(prefix="prof-bench-")
    results, kept = {}, {}
    try:
        for workload in selected(args.only):
            results[workload.name] = run_workload(workload, tools, sizes, runs, kept, work_dir,
                                                  args.timeout)
            # Printed and saved as each workload ends, so a run cut short keeps what it measured.
            print("\n".join(table.workload_lines(workload, results[workload.name])), flush=True)
            write_json(args.json, args, tools, runs, results, [])
    finally:
        if not args.work:
            shutil.rmtree(work_dir, ignore_errors=True)
    judged = budget.judge({name: r["summary"] for name, r in results.items() if "summary" in r})
    print("\n".join(table.budget_lines(judged)))
    write_json(args.json, args, tools, runs, results, judged)
    print(f"json: {os.path.abspath(args.json)}")
    failed = any("error" in r for result in results.values() for r in result.get("records", []))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
