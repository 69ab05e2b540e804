#!/usr/bin/env python3
"""Many rank reports on one machine: `prof stats` over N reports at once (its thread pool, -j)
against `prof merge` of the N reports followed by `prof stats` on the merged one, for N = 16, 64,
256 synthetic reports (tests/recipes/make_rank_reports, through prof's ReportWriter). Prints one
markdown table for docs/performance.md ("Many reports on one machine"). Not a CTest test: it
writes N x ~12.5 MB of reports (deleted at the end) and runs for minutes.

    bench/many_reports/run_many_reports.py --build build --work-dir /tmp/many_reports
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

SLOW_RANK = "5"


def peak_kb(pid):
    """VmHWM of a running process in kB (0 once it is gone), as bench/run.py measures prof."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def timed(command):
    """(wall seconds, peak kB) of a command whose output is thrown away; fails loudly."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, peak_kb(process.pid))
        time.sleep(0.01)
    wall = time.monotonic() - start
    if process.returncode != 0:
        sys.exit(f"failed ({process.returncode}): {' '.join(command)}")
    return wall, peak


def subset(reports, count, work_dir):
    """A directory holding links to the first `count` reports."""
    directory = os.path.join(work_dir, f"n{count}")
    os.makedirs(directory, exist_ok=True)
    for name in sorted(os.listdir(reports))[:count]:
        os.symlink(os.path.join(reports, name), os.path.join(directory, name))
    return directory


def measure(prof, directory, report, jobs_list, work_dir):
    rows = {}
    for jobs in jobs_list:
        rows[f"prof stats -j {jobs}"] = timed(
            [prof, "stats", "-q", "-j", str(jobs), "-r", report, "-f", "csv", directory])
    merged = os.path.join(work_dir, "merged.sqlite")
    inputs = [os.path.join(directory, name) for name in sorted(os.listdir(directory))]
    merge = timed([prof, "merge", "-o", merged] + inputs)
    stats = timed([prof, "stats", "-q", "-r", report, "-f", "csv", merged])
    os.remove(merged)
    rows["prof merge"] = merge
    rows["then prof stats"] = stats
    rows["prof merge + prof stats"] = (merge[0] + stats[0], max(merge[1], stats[1]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--work-dir", default="/tmp/prof_many_reports")
    parser.add_argument("--counts", default="16,64,256")
    parser.add_argument("--events", type=int, default=200000, help="events per report")
    parser.add_argument("--report", default="cuda_gpu_kern_sum")
    parser.add_argument("--jobs", default=f"1,{os.cpu_count()}", help="-j values to time")
    arguments = parser.parse_args()
    prof = os.path.join(arguments.build, "bin", "prof")
    make_reports = os.path.join(arguments.build, "tests", "bin", "make_rank_reports")
    counts = [int(n) for n in arguments.counts.split(",")]
    jobs_list = sorted({int(j) for j in arguments.jobs.split(",")})

    shutil.rmtree(arguments.work_dir, ignore_errors=True)
    reports = os.path.join(arguments.work_dir, "reports")
    os.makedirs(reports)
    start = time.monotonic()
    subprocess.run([make_reports, reports, str(max(counts)), str(arguments.events), SLOW_RANK],
                   check=True)
    size_mb = sum(os.path.getsize(os.path.join(reports, n)) for n in os.listdir(reports)) / 1e6
    print(f"generated {max(counts)} reports of {arguments.events} events, {size_mb:.0f} MB, "
          f"in {time.monotonic() - start:.0f} s", file=sys.stderr)
    print("| N | command | wall (s) | peak memory (MB) | per report (ms) |")
    print("|---:|---|---:|---:|---:|")
    try:
        for count in counts:
            directory = subset(reports, count, arguments.work_dir)
            for name, (wall, peak) in measure(prof, directory, arguments.report, jobs_list,
                                              arguments.work_dir).items():
                print(f"| {count} | {name} | {wall:.1f} | {peak / 1024:.0f} | "
                      f"{1000 * wall / count:.0f} |", flush=True)
    finally:
        shutil.rmtree(arguments.work_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
