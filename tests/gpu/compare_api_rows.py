"""CUDA API rows per function name in prof's report and nsys's of the same program; for each name
whose counts differ, per thread (process index in start order, main thread or not, thread name)
and the row before it on that thread (a driver call right after a runtime call that has no row was
made inside an unrecorded call). Exits 1 when any count differs.
    compare_api_rows.py PROF.sqlite NSYS.sqlite"""
import collections
import sqlite3
import sys

counts, detail = {}, {}
for label, path in (("prof", sys.argv[1]), ("nsys", sys.argv[2])):
    db = sqlite3.connect(path)
    names = dict(db.execute("SELECT id, value FROM StringIds"))
    has_rows = db.execute("SELECT count(*) FROM sqlite_master WHERE name = "
                          "'CUPTI_ACTIVITY_KIND_RUNTIME'").fetchone()[0]
    rows = db.execute("SELECT start, globalTid, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                      "ORDER BY start").fetchall() if has_rows else []
    first = {}
    for start, gtid, _ in rows:
        first.setdefault((gtid >> 24) & 0xFFFFFF, start)
    order = sorted(first, key=first.get)
    tnames = {}
    try:
        tnames = {g: names.get(n) for g, n in db.execute("SELECT globalTid, nameId FROM ThreadNames")}
    except sqlite3.Error:
        pass
    c = collections.Counter()
    d = collections.defaultdict(collections.Counter)
    last = {}
    for start, gtid, nid in rows:
        n = names[nid]
        c[n] += 1
        pid, tid = (gtid >> 24) & 0xFFFFFF, gtid & 0xFFFFFF
        d[n][(order.index(pid), tid == pid, tnames.get(gtid), "after " + str(last.get(gtid)))] += 1
        last[gtid] = n
    counts[label], detail[label] = c, d
print(f"rows: prof {sum(counts['prof'].values())}, nsys {sum(counts['nsys'].values())}")
differ = sorted(n for n in set(counts["prof"]) | set(counts["nsys"]) if counts["prof"][n] != counts["nsys"][n])
for n in differ:
    print(f"{n}: prof {counts['prof'][n]} nsys {counts['nsys'][n]}")
    for label in ("prof", "nsys"):
        for k, v in sorted(detail[label][n].items(), key=str):
            print(f"    {label} {k} {v}")
print("names that differ:", len(differ))
sys.exit(1 if differ else 0)
