#!/usr/bin/env python3
"""Checks the CUDA_GPU_MEMORY_USAGE_EVENTS of a report of tests/gpu/memory_usage.py. Python 3
stdlib only.

  check_memory_report.py <report.sqlite> <expected.json> [<cuda_gpu_mem_peak.csv>]

Asserts: the allocations and frees of device memory of at least 10 MiB are memory_usage.py's
steps, in order, each free at the address of its allocation; every allocation's correlationId is
that of a cudaMalloc/cuMemAlloc call in CUPTI_ACTIVITY_KIND_RUNTIME; the peak of device memory
allocated (the running sum of allocations minus frees) is torch.cuda.max_memory_reserved(), or at
most one 2 MiB allocator granule above it (prof also sees allocations torch does not count); and,
given the csv of `prof stats -r cuda_gpu_mem_peak`, that the report prints that same peak.
Prints one PASS/FAIL line per assertion and exits 1 when one failed.
"""
import csv
import json
import sqlite3
import sys

GRANULE = 2 << 20
LARGE = 10 << 20
DEVICE_KIND = 2  # ENUM_CUDA_MEM_KIND Device
ALLOCATION = 0   # ENUM_CUDA_DEV_MEM_EVENT_OPER


class Results:
    def __init__(self):
        self.failed = 0

    def check(self, ok, text):
        print(("PASS " if ok else "FAIL ") + text)
        self.failed += 0 if ok else 1


def main(report, expected_path, peak_csv=None):
    with open(expected_path, encoding="utf-8") as file:
        expected = json.load(file)
    results = Results()
    db = sqlite3.connect(report)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    results.check("CUDA_GPU_MEMORY_USAGE_EVENTS" in tables, "the report has CUDA_GPU_MEMORY_USAGE_EVENTS")
    if results.failed:
        return 1
    rows = db.execute(
        "SELECT memoryOperationType, bytes, address, correlationId, start FROM CUDA_GPU_MEMORY_USAGE_EVENTS"
        " WHERE memKind = ? AND deviceId = ? ORDER BY start, rowid",
        (DEVICE_KIND, expected["device"])).fetchall()
    large = [row for row in rows if row[1] >= LARGE]
    steps = [["alloc" if op == ALLOCATION else "free", size] for op, size, *_ in large]
    results.check(steps == expected["steps"], f"large allocations and frees in order: {steps}")

    alive, unmatched = {}, 0
    for op, size, address, *_ in large:
        if op == ALLOCATION:
            alive[address] = size
        elif alive.pop(address, None) != size:
            unmatched += 1
    results.check(unmatched == 0 and not alive, "every free is at its allocation's address, nothing left")

    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
        calls = dict(db.execute(
            "SELECT r.correlationId, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
            " JOIN StringIds s ON s.id = r.nameId"))
        names = [calls.get(row[3], "") for row in large if row[0] == ALLOCATION]
        results.check(all(n.startswith(("cudaMalloc", "cuMemAlloc")) for n in names),
                      f"allocations correlate with their API calls: {names}")

    running = peak = 0
    for op, size, *_ in rows:
        running += size if op == ALLOCATION else -size
        peak = max(peak, running)
    torch_peak = expected["max_memory_reserved"]
    results.check(0 <= peak - torch_peak < GRANULE,
                  f"peak {peak} B matches torch.cuda.max_memory_reserved() {torch_peak} B")
    if peak_csv:
        with open(peak_csv, encoding="utf-8", newline="") as file:
            printed = {int(row["Peak (B)"]) for row in csv.DictReader(file)
                       if int(row["Device"]) == expected["device"]}
        results.check(printed == {peak}, f"prof stats cuda_gpu_mem_peak prints the peak: {printed}")
    print(f"{'FAIL' if results.failed else 'PASS'}: {results.failed} failed; peak {peak} B,"
          f" torch {torch_peak} B, {len(rows)} device memory rows")
    return 1 if results.failed else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
