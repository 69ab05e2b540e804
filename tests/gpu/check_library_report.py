"""Checks prof's report of tests/gpu/library_calls.py profiled with
--trace=cuda,cublas,cudnn --python-backtrace=cuda: exact cuBLAS/cuDNN call counts, GPU work nested
in the library calls, and the per-step .item() sync attributed to its Python line by
cuda_api_py_sum and prof analyze sync_hotspots.
Usage: check_library_report.py <report.sqlite> <info.json> <cuda_api_py_sum.csv> <sync_hotspots.csv>
                               [nsys export .sqlite of the same script, for counts side by side]"""
import csv
import json
import sqlite3
import sys

report, info_path, py_sum_csv, hotspots_csv = sys.argv[1:5]
nsys_report = sys.argv[5] if len(sys.argv) > 5 else None
info = json.load(open(info_path))
steps, site = info["steps"], f"library_calls.py:{info['sync_line']} {info['sync_function']}"
db = sqlite3.connect(report)
failures = 0


def check(ok, text):
    global failures
    print(("PASS " if ok else "FAIL ") + text)
    failures += 0 if ok else 1


def counts(table):
    return dict(db.execute(f"SELECT s.value, count(*) FROM {table} t JOIN StringIds s ON s.id = t.nameId"
                           " GROUP BY 1"))


cublas, cudnn = counts("CUBLAS_EVENTS"), counts("CUDNN_EVENTS")
print("cuBLAS calls:", cublas)
print("cuDNN calls:", cudnn)
check(cublas.get("cublasLtSSSMatmul") == 3 * steps,
      f"cublasLtSSSMatmul: {cublas.get('cublasLtSSSMatmul')} = 3 per step x {steps}")
check(cudnn.get("cudnnBackendExecute") == 2 * steps,
      f"cudnnBackendExecute: {cudnn.get('cudnnBackendExecute')} = 2 per step x {steps}")
# Every matmul and convolution call encloses a kernel launch of its thread whose kernel ran.
for table, name in (("CUBLAS_EVENTS", "cublasLtSSSMatmul"), ("CUDNN_EVENTS", "cudnnBackendExecute")):
    nested = db.execute(
        f"SELECT count(*) FROM {table} c JOIN StringIds s ON s.id = c.nameId WHERE s.value = ? AND"
        " EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN CUPTI_ACTIVITY_KIND_KERNEL k"
        " ON k.correlationId = r.correlationId WHERE r.globalTid = c.globalTid AND"
        " r.start >= c.start AND r.end <= c.end)", (name,)).fetchone()[0]
    total = (cublas if table == "CUBLAS_EVENTS" else cudnn).get(name, 0)
    check(nested == total and total > 0, f"{name}: {nested} of {total} enclose a kernel launch")

has_chains = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'CUDA_CALLCHAINS'").fetchone()[0]
check(has_chains == 1, "the report has CUDA_CALLCHAINS")
chains = db.execute("SELECT count(DISTINCT id) FROM CUDA_CALLCHAINS").fetchone()[0] if has_chains else 0
with_stack = db.execute("SELECT count(*), (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME)"
                        " FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS NOT NULL").fetchone()
print(f"Python stacks: {chains}; API calls with a stack: {with_stack[0]} of {with_stack[1]}")
rows = [r for r in csv.DictReader(open(py_sum_csv)) if r.get("Python Line") == site] if has_chains else []
print("cuda_api_py_sum rows of", site, [(r["Name"], r["Num Calls"]) for r in rows])
check(any(r["Name"] == "cudaStreamSynchronize" and int(r["Num Calls"]) == steps for r in rows) or
      any(r["Name"].startswith("cudaMemcpy") and int(r["Num Calls"]) == steps for r in rows),
      f"cuda_api_py_sum: the .item() sync is at {site}, {steps} calls")
hot = [r for r in csv.DictReader(open(hotspots_csv)) if r.get("Python Line") == site]
check(len(hot) >= 1, f"sync_hotspots names {site}: {[(r['API Name'], r['Calls']) for r in hot]}")

if nsys_report:
    nsys = sqlite3.connect(nsys_report)
    tables = {r[0] for r in nsys.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    ranges = nsys.execute("SELECT s.value, count(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId"
                          " WHERE n.eventType = 59 GROUP BY 1").fetchall() if "NVTX_EVENTS" in tables else []
    print("nsys 2025.3 on the same script: library tables",
          sorted(t for t in tables if t in ("CUBLAS_EVENTS", "CUDNN_EVENTS", "CUDA_CALLCHAINS")),
          "NVTX library ranges", ranges)
print("PASS: 0 failed" if failures == 0 else f"FAIL: {failures} failed")
sys.exit(1 if failures else 0)
