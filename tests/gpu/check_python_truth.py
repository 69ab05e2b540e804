"""Checks a prof report of tests/sampling/python_truth.py against the truth the program printed, as
tests/sampling/python_truth_test.cpp does on the build machine (issue 42), for the GPU host's
Python (3.12). Prints one line per check and a summary line; exits 1 when one fails.

Usage: check_python_truth.py REPORT PROGRAM_STDOUT TRUTH_PY"""
import math
import sqlite3
import sys

report, stdout_path, truth_py = sys.argv[1:4]
printed = dict(line.strip().split("=", 1) for line in open(stdout_path) if "=" in line)
db = sqlite3.connect(report)
failures = []


def check(name, ok, detail):
    print(("PASS " if ok else "FAIL ") + name + ": " + detail)
    if not ok:
        failures.append(name)


def samples_under(function):
    """(function, line, file, globalTid, pid) of the innermost Python frame of each sample that has
    `function` among its Python frames."""
    rows = db.execute(
        "WITH leaf AS (SELECT id, min(stackDepth) AS depth FROM SAMPLING_CALLCHAINS "
        "WHERE unwindMethod = 1001 GROUP BY id) "
        "SELECT n.value, c.originalIP, m.value, s.globalTid, s.globalTid / 16777216 % 16777216 "
        "FROM leaf l JOIN SAMPLING_CALLCHAINS c ON c.id = l.id AND c.stackDepth = l.depth "
        "JOIN StringIds n ON n.id = c.symbol JOIN StringIds m ON m.id = c.module "
        "JOIN COMPOSITE_EVENTS s ON s.id = l.id WHERE EXISTS (SELECT 1 FROM SAMPLING_CALLCHAINS u "
        "JOIN StringIds un ON un.id = u.symbol WHERE u.id = l.id AND u.unwindMethod = 1001 "
        "AND un.value = ?)", (function,)).fetchall()
    return rows


def count(rows, function):
    return sum(1 for row in rows if row[0] == function)


def split(name, rows, first, second, truth):
    ones, twos = count(rows, first), count(rows, second)
    measured = ones / max(1, ones + twos)
    bound = max(0.05, 3 * math.sqrt(truth * (1 - truth) / max(1, (ones + twos) / 4)))
    check(name, ones + twos >= 200 and abs(measured - truth) <= bound,
          f"{first} {ones}, {second} {twos}: {100 * measured:.1f} % against {100 * truth:.1f} % "
          f"(bound {100 * bound:.1f} points, {len(rows)} samples)")


def measured(first, second):
    return float(printed[first]) / (float(printed[first]) + float(printed[second]))


rows = samples_under("busy_then_sleep")
burst = count(rows, "burn_two_ms")
check("2 ms burst between sleeps", len(rows) >= 200 and burst >= 0.95 * len(rows),
      f"{burst} of {len(rows)} samples in burn_two_ms, {count(rows, 'busy_then_sleep')} in the caller")
split("callees of 0.6 / 0.4 ms", samples_under("alternate"), "callee_sixty", "callee_forty",
      measured("callee_sixty", "callee_forty"))
split("generator / consumer 70 / 30", samples_under("consume"), "produce", "consume",
      measured("produce", "consume"))
line = next(i + 1 for i, text in enumerate(open(truth_py)) if text.rstrip().endswith("# LINE_ZLIB"))
rows = samples_under("compress_blocks")
at_line = sum(1 for row in rows if row[0] == "compress_blocks" and row[1] == line)
check("C call on its Python line", len(rows) >= 200 and at_line >= 0.95 * len(rows),
      f"{at_line} of {len(rows)} samples at line {line}")
for thread in ("thread_one", "thread_two"):
    rows = samples_under(thread)
    own = count(rows, thread)
    check(f"{thread}'s samples", len(rows) >= 200 and own >= 0.95 * len(rows)
          and len({row[3] for row in rows}) == 1, f"{own} of {len(rows)} samples, one thread")
rows = samples_under("child_work")
split("fork child 70 / 30", rows, "child_seventy", "child_thirty", 0.7)
check("fork child's samples are its own", {str(row[4]) for row in rows} == {printed["child_pid"]},
      f"pids {sorted({row[4] for row in rows})}")
main_samples = db.execute("SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid / 16777216 % "
                          "16777216 = ?", (int(printed["main_pid"]),)).fetchone()[0]
cpu = float(printed["process_cpu"])
check("each moment sampled once", 0.85 * 1000 * cpu <= main_samples <= 1.15 * 1000 * cpu,
      f"{main_samples} samples of the main process for {cpu:.2f} s of CPU")
print(f"python truth: {len(failures)} of 9 checks failed" if failures else
      "python truth: every check passed")
sys.exit(1 if failures else 0)
