#!/usr/bin/env python3
"""CPU sampling (-s process-tree, issue 26) beside CUDA/CUPTI tracing: a report of a torch workload
profiled with `-t cuda,nvtx -s process-tree -b <fp|dwarf>` against the report of the same workload
without -s.

Usage: check_sampling_report.py [--refused] <sampled.sqlite> <unsampled.sqlite> <prof output>

Asserts: the program's own output is intact (torch_mix.py's last line, `done <float>`, once);
COMPOSITE_EVENTS has rows and SAMPLING_CALLCHAINS has a stack for each of them (unless --refused:
prof warned that perf_event_open was refused, then the tables must be absent and that is INFO);
the same CUDA kernels, copies, memsets and NVTX ranges as the run without -s. One line per
assertion, a summary line last, exit 1 on a failure. Python stdlib only.
"""
import re
import sqlite3
import sys


def count(db, table, where=""):
    if not db.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]:
        return 0
    return db.execute(f"SELECT count(*) FROM {table} {where}").fetchone()[0]


def main():
    args = sys.argv[1:]
    refused = "--refused" in args
    sampled_path, plain_path, output_path = [a for a in args if a != "--refused"]
    sampled, plain = sqlite3.connect(sampled_path), sqlite3.connect(plain_path)
    failed = 0

    def check(ok, line):
        nonlocal failed
        failed += not ok
        print(("PASS " if ok else "FAIL ") + line)

    done = re.findall(r"^done -?[0-9.e+-]+$", open(output_path, errors="replace").read(), re.M)
    check(len(done) == 1, f"program output intact: {done}")

    samples = count(sampled, "COMPOSITE_EVENTS")
    frames = count(sampled, "SAMPLING_CALLCHAINS")
    stacks = sampled.execute("SELECT count(DISTINCT id) FROM SAMPLING_CALLCHAINS").fetchone()[0] if frames else 0
    if refused:
        print(f"INFO perf_event_open refused on this host: COMPOSITE_EVENTS rows {samples}, "
              f"SAMPLING_CALLCHAINS rows {frames}")
        check(samples == 0, "no sample rows when sampling is off")
    else:
        check(samples > 0 and frames > 0,
              f"COMPOSITE_EVENTS rows {samples}, SAMPLING_CALLCHAINS rows {frames} ({stacks} stacks)")
        check(stacks == samples, f"every sample has its stack: {stacks} of {samples}")
        if samples:
            depth, methods = sampled.execute(
                "SELECT avg(d), (SELECT group_concat(DISTINCT unwindMethod) FROM SAMPLING_CALLCHAINS) "
                "FROM (SELECT max(stackDepth) + 1 AS d FROM SAMPLING_CALLCHAINS GROUP BY id)").fetchone()
            threads = sampled.execute("SELECT count(DISTINCT globalTid) FROM COMPOSITE_EVENTS").fetchone()[0]
            lost = dict(sampled.execute("SELECT name, value FROM PROF_SESSION WHERE name LIKE "
                                        "'%sample%' OR name LIKE '%lost%'").fetchall())
            print(f"INFO mean stack depth {depth:.1f}, unwindMethod {methods}, threads sampled {threads}, "
                  f"PROF_SESSION {lost}")
            top = sampled.execute(
                "SELECT s.value, count(*) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
                "WHERE c.stackDepth = 0 GROUP BY 1 ORDER BY 2 DESC LIMIT 5").fetchall()
            print(f"INFO leaf functions most sampled: {top}")

    for table, label in (("CUPTI_ACTIVITY_KIND_KERNEL", "kernels"), ("CUPTI_ACTIVITY_KIND_MEMCPY", "copies"),
                         ("CUPTI_ACTIVITY_KIND_MEMSET", "memsets"), ("NVTX_EVENTS", "NVTX events")):
        a, b = count(sampled, table), count(plain, table)
        check(a == b and (a > 0 or label != "kernels"), f"{label}: {a} with -s, {b} without")
    print(("PASS" if not failed else "FAIL") + f": {failed} failed; samples {samples}, "
          f"kernels {count(sampled, 'CUPTI_ACTIVITY_KIND_KERNEL')} = "
          f"{count(plain, 'CUPTI_ACTIVITY_KIND_KERNEL')} without -s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
