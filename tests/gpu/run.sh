#!/usr/bin/env bash
# Every GPU-machine check of prof, run on the lent H200 through the device tool, e.g.
#   run: bash tests/gpu/run.sh        carry: ["build-gpu", ".device-libs"]
# where build-gpu was built here with:
#   cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPROF_BUILD_TESTS=OFF && cmake --build build-gpu -j2
# and .device-libs holds libdw/libelf/libbz2 for nsys's importer (see docs/testing-gpu.md).
# Prints one line per check and a summary table; exits non-zero when a check fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${PROF_GPU_BUILD:-build-gpu}
prof=$build/bin/prof
nsys=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
work=${OUT:-$(mktemp -d)}/gpu-run
mkdir -p "$work"
failures=0
declare -a table

check() {  # check <name> <condition result 0/1> <detail>
  if [ "$2" -eq 0 ]; then table+=("PASS | $1 | $3"); else table+=("FAIL | $1 | $3"); failures=$((failures + 1)); fi
}
seconds() { python3 -c "import time; print(f'{time.monotonic():.3f}')"; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }

echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 -c "import torch; print('torch', torch.__version__)"

echo "== dependencies of prof's binaries"
allowed='linux-vdso|libprof_core\.so|libc\.so|libm\.so|libgcc_s|libstdc\+\+|ld-linux|libsqlite3|libcupti|libpthread|libdl'
extra=""
for binary in "$prof" "$build"/lib/libprof_*.so; do
  ldd "$binary" | sed "s|^|$(basename "$binary"): |"
  extra+=$(ldd "$binary" | awk '{print $1}' | grep -Ev "$allowed" | tr '\n' ' ')
done
[ -z "$extra" ]; check "ldd: only glibc, libstdc++, libsqlite3" $? "${extra:-none extra}"

run_pair() {  # run_pair <name> <python script>: the script plain, under prof, under nsys
  local name=$1 script=$2 t0 t1
  t0=$(seconds); python3 "$script" > "$work/$name.plain.out" 2>&1; local plain_rc=$?; t1=$(seconds)
  local plain_s; plain_s=$(elapsed "$t0" "$t1")
  t0=$(seconds); "$prof" profile -t nvtx,osrt -f true -o "$work/$name.prof" python3 "$script" > "$work/$name.prof.out" 2>&1; local prof_rc=$?; t1=$(seconds)
  local prof_s; prof_s=$(elapsed "$t0" "$t1")
  t0=$(seconds); LD_LIBRARY_PATH=$PWD/.device-libs "$nsys" profile --trace=nvtx,osrt --sample=none --cpuctxsw=none -f true -o "$work/$name.nsys" python3 "$script" > "$work/$name.nsys.out" 2>&1; local nsys_rc=$?; t1=$(seconds)
  local nsys_s; nsys_s=$(elapsed "$t0" "$t1")
  LD_LIBRARY_PATH=$PWD/.device-libs "$nsys" export --type sqlite -f true -o "$work/$name.nsys.sqlite" "$work/$name.nsys.nsys-rep" > /dev/null 2>&1
  echo "== $name: exit plain=$plain_rc prof=$prof_rc nsys=$nsys_rc; wall s plain=$plain_s prof=$prof_s nsys=$nsys_s"
  tail -3 "$work/$name.prof.out"
  [ "$prof_rc" -eq "$plain_rc" ] && [ "$prof_rc" -eq 0 ]; check "$name: exit code passes through" $? "plain=$plain_rc prof=$prof_rc"
  table+=("INFO | $name: wall time | plain ${plain_s}s, prof ${prof_s}s, nsys ${nsys_s}s (incl. report writing)")
  for report in nvtx_pushpop_sum osrt_sum; do
    "$prof" stats -q -r "$report" -f csv "$work/$name.prof.sqlite" > "$work/$name.prof.$report.csv" 2>&1
    "$prof" stats -q -r "$report" -f csv "$work/$name.nsys.sqlite" > "$work/$name.nsys.$report.csv" 2>&1
  done
  # Same NVTX ranges with the same instance counts as nsys.
  python3 - "$work/$name.prof.nvtx_pushpop_sum.csv" "$work/$name.nsys.nvtx_pushpop_sum.csv" > "$work/$name.nvtx.cmp" <<'PY'
import csv, sys
def ranges(path):
    rows = list(csv.DictReader(open(path)))
    return {r["Range"]: int(r["Instances"]) for r in rows}
prof, nsys = ranges(sys.argv[1]), ranges(sys.argv[2])
print("prof", sorted(prof.items())); print("nsys", sorted(nsys.items()))
sys.exit(0 if prof == nsys and prof else 1)
PY
  check "$name: NVTX ranges and counts equal nsys's" $? "$(tr '\n' ' ' < "$work/$name.nvtx.cmp" | cut -c1-160)"
  python3 - "$work/$name.prof.osrt_sum.csv" "$work/$name.nsys.osrt_sum.csv" > "$work/$name.osrt.cmp" <<'PY'
import csv, sys
def calls(path):
    return {r["Name"]: int(r["Num Calls"]) for r in csv.DictReader(open(path))}
prof, nsys = calls(sys.argv[1]), calls(sys.argv[2])
top = sorted(nsys, key=lambda n: -nsys[n])[:12]
for n in top: print(f"{n}: nsys {nsys[n]} prof {prof.get(n, 0)}")
missing = [n for n in nsys if n not in prof and nsys[n] >= 5]
print("nsys functions prof lacks (>=5 calls):", missing)
sys.exit(0 if not missing else 1)
PY
  check "$name: OSRT functions nsys sees are traced" $? "$(tail -1 "$work/$name.osrt.cmp")"
  cat "$work/$name.osrt.cmp"
}

run_pair torch_mix tests/data/nsys-torch_mix/torch_mix.py
run_pair dataloader tests/gpu/dataloader_step.py
processes=$(sqlite3 "$work/dataloader.prof.sqlite" "SELECT count(*) FROM PROCESSES" 2>/dev/null ||
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM PROCESSES').fetchone()[0])" "$work/dataloader.prof.sqlite")
[ "${processes:-0}" -ge 3 ]; check "dataloader: worker processes traced" $? "PROCESSES rows: $processes"

if [ -x "$build/bin/osrt_overhead_bench" ]; then
  echo "== OS runtime overhead (bench/osrt_overhead)"
  bash bench/osrt_overhead/compare_overhead.sh "$prof" "$build/bin/osrt_overhead_bench" 3 | tee "$work/osrt_overhead.txt"
fi

echo; echo "== summary"
printf '%s\n' "${table[@]}"
exit $((failures > 0))
