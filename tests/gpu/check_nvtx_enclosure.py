#!/usr/bin/env python3
"""NVTX push/pop ranges against the CUDA API calls made inside them (issue 29: ranges stamped with
the CPU's counter and converted to CLOCK_MONOTONIC by the launcher, other records stamped with
CLOCK_MONOTONIC directly).

Usage: check_nvtx_enclosure.py <report.sqlite> <range text> <expected>

For a workload that makes exactly one kernel launch inside each push/pop range named <range text>
(bench/cuda_overhead/launch_loop.py: `expected` = iterations + warmup ranges "step", each around
one `x.add_`), asserts by time, on each thread (globalTid):
  - <expected> ranges named <range text>, and <expected> cudaLaunchKernel rows inside one of them;
  - each such range holds exactly one cudaLaunchKernel row;
  - no CUDA API row (CUPTI_ACTIVITY_KIND_RUNTIME) straddles a push/pop range's start or end.
Prints the clock the ranges were stamped with (nvtx_counter_time of the launcher's settings in
PROF_SESSION's environment_set), one line per assertion, a last line
`PASS|FAIL: ... enclosed=<n> api_enclosed=<n>` and exits 1 on a failure.
Python stdlib only.
"""
import re
import sqlite3
import sys

PUSH_POP = 59  # NVTX_EVENTS.eventType of a push/pop range (nsys's NvtxPushPopRange)


def main():
    path, text, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
    db = sqlite3.connect(path)
    env = dict(db.execute("SELECT name, value FROM PROF_SESSION").fetchall()).get("environment_set", "")
    stamped = re.search(r"nvtx_counter_time=(\d)", env)
    print("NVTX clock:", {"1": "CPU counter (TSC) converted by the launcher",
                          "0": "CLOCK_MONOTONIC in the program"}.get(stamped and stamped.group(1),
                                                                    "unknown (no settings in PROF_SESSION)"))
    db.executescript(f"""
        CREATE TEMP TABLE ranges AS SELECT rowid AS id, globalTid AS tid, start, "end", text
            FROM NVTX_EVENTS WHERE eventType = {PUSH_POP} AND "end" IS NOT NULL;
        CREATE INDEX temp.ranges_start ON ranges(tid, start);
        CREATE INDEX temp.ranges_end ON ranges(tid, "end");
        CREATE TEMP TABLE api AS SELECT r.globalTid AS tid, r.start, r."end", s.value AS name
            FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId;
        CREATE INDEX temp.api_start ON api(tid, start);
    """)
    named = db.execute("SELECT count(*) FROM ranges WHERE text = ?", (text,)).fetchone()[0]
    open_ranges = db.execute(f'SELECT count(*) FROM NVTX_EVENTS WHERE eventType = {PUSH_POP} '
                             'AND "end" IS NULL').fetchone()[0]
    launch = "name LIKE 'cudaLaunchKernel%'"
    launches = db.execute(f"SELECT count(*) FROM api WHERE {launch}").fetchone()[0]
    inside = ("EXISTS (SELECT 1 FROM ranges n WHERE n.tid = a.tid AND n.start <= a.start "
              'AND a."end" <= n."end"{})')
    enclosed = db.execute(f"SELECT count(*) FROM api a WHERE {launch} AND "
                          + inside.format(" AND n.text = ?"), (text,)).fetchone()[0]
    per_range = dict(db.execute(
        "SELECT k, count(*) FROM (SELECT (SELECT count(*) FROM api a WHERE a.tid = n.tid AND "
        f'a.start >= n.start AND a."end" <= n."end" AND {launch}) AS k FROM ranges n '
        "WHERE n.text = ?) GROUP BY k", (text,)).fetchall())
    api_total = db.execute("SELECT count(*) FROM api").fetchone()[0]
    api_enclosed = db.execute("SELECT count(*) FROM api a WHERE " + inside.format("")).fetchone()[0]
    straddling = db.execute(
        "SELECT a.name, a.start, a.\"end\", n.text, n.start, n.\"end\" FROM api a JOIN ranges n "
        "ON n.tid = a.tid AND ((n.start > a.start AND n.start < a.\"end\") OR "
        "(n.\"end\" > a.start AND n.\"end\" < a.\"end\"))").fetchall()
    inside_names = db.execute(
        "SELECT name, count(*) FROM api a WHERE " + inside.format(" AND n.text = ?")
        + " GROUP BY name ORDER BY 2 DESC LIMIT 6", (text,)).fetchall()

    failed = 0

    def check(ok, line):
        nonlocal failed
        failed += not ok
        print(("PASS " if ok else "FAIL ") + line)

    check(named == expected, f"'{text}' push/pop ranges: {named}, expected {expected} "
                             f"(unclosed push/pop ranges in the report: {open_ranges})")
    check(enclosed == expected, f"cudaLaunchKernel rows inside a '{text}' range on their thread: "
                                f"{enclosed} of {launches}, expected {expected}")
    check(per_range == {1: expected}, f"'{text}' ranges by the launches they hold: {per_range}, "
                                      f"expected {{1: {expected}}}")
    check(not straddling, f"CUDA API rows straddling a push/pop range's start or end: {len(straddling)}")
    for row in straddling[:5]:
        print(f"  {row[0]} [{row[1]}, {row[2]}] vs range '{row[3]}' [{row[4]}, {row[5]}]")
    print(f"INFO CUDA API rows inside any push/pop range on their thread: {api_enclosed} of {api_total};"
          f" inside '{text}' by name: {inside_names}")
    print(("PASS" if not failed else "FAIL") + f": {failed} failed; enclosed={enclosed} "
          f"api_enclosed={api_enclosed} straddling={len(straddling)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
