#!/usr/bin/env bash
# Every GPU-machine check of prof, run on the lent H200 through the device tool, e.g.
#   run: bash tests/gpu/run.sh        carry: ["build-gpu/bin", "build-gpu/lib", ".device-libs"]
# (the whole build-gpu folder is over the carry's 64 MiB)
# where build-gpu was built here with (docs/testing-gpu.md):
#   cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPROF_BUILD_TESTS=OFF -DPROF_BUILD_GPU_TESTS=ON \
#     -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc && cmake --build build-gpu -j2
# and .device-libs holds libdw/libelf/libbz2 for nsys's importer.
# Prints one line per check and a summary table; exits non-zero when a check fails.
# GPU_CHECKS (default "cuda torch training dataloader abrupt spawn memory capture analyze libraries sampling
# python_truth pytorch gpu_metrics bench in_program breakdown") picks sections. prof runs compared with nsys's (--sample=none) pass -s none;
# the others sample, prof's default.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${PROF_GPU_BUILD:-build-gpu}
prof=$build/bin/prof
nsys_bin=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
work=${OUT:-$(mktemp -d)}/gpu-run
sections=${GPU_CHECKS:-cuda torch training dataloader abrupt spawn memory capture analyze libraries sampling python_truth pytorch gpu_metrics bench in_program breakdown}
mkdir -p "$work"
failures=0
declare -a table

check() {  # check <name> <condition result 0/1> <detail>
  if [ "$2" -eq 0 ]; then table+=("PASS | $1 | $3"); else table+=("FAIL | $1 | $3"); failures=$((failures + 1)); fi
}
info() { table+=("INFO | $1 | $2"); }
seconds() { python3 -c "import time; print(f'{time.monotonic():.3f}')"; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
nsys() { LD_LIBRARY_PATH=$PWD/.device-libs "$nsys_bin" "$@"; }
# nsys_capture <name> <trace> <command...>: nsys profile + export to $work/<name>.nsys.sqlite
nsys_capture() {
  local name=$1 trace=$2; shift 2
  nsys profile --trace="$trace" --sample=none --cpuctxsw=none -f true -o "$work/$name.nsys" "$@" \
    > "$work/$name.nsys.out" 2>&1
  local rc=$?
  nsys export --type sqlite -f true -o "$work/$name.nsys.sqlite" "$work/$name.nsys.nsys-rep" > /dev/null 2>&1
  return $rc
}
# summary_of <file>: the checker's last line, for the table
summary_of() { tail -1 "$1" | cut -c1-150; }

echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__)"

echo "== dependencies of prof's binaries"
allowed='linux-vdso|libprof_core\.so|libc\.so|libm\.so|libgcc_s|libstdc\+\+|ld-linux|libsqlite3|libcupti|libpthread|libdl'
extra=""
# libprof_torch.so is left out: it links the libtorch it was built against and is loaded only into
# that libtorch's processes (docs/pytorch.md).
for binary in "$prof" "$build"/lib/libprof_*.so; do
  [[ "$binary" == */libprof_torch.so ]] && continue
  ldd "$binary" | sed "s|^|$(basename "$binary"): |"
  extra+=$(ldd "$binary" | awk '{print $1}' | grep -Ev "$allowed" | tr '\n' ' ')
done
[ -z "$extra" ]; check "ldd: only glibc, libstdc++, libsqlite3" $? "${extra:-none extra}"

# cuda_program <program> [graph|node]: prof's report checked alone, then against nsys's.
cuda_program() {
  local program=$1 mode=${2:-graph} name=$1
  [ "$mode" = node ] && name=$program.node
  "$prof" profile -t cuda,nvtx -s none --cuda-graph-trace="$mode" -f true -o "$work/$name.prof" \
    "$build/bin/$program" > "$work/$name.prof.out" 2>&1
  local rc=$?
  tail -3 "$work/$name.prof.out"
  python3 tests/gpu/check_cuda_report.py --graph-trace="$mode" "$program" "$work/$name.prof.sqlite" \
    > "$work/$name.check" 2>&1
  local checked=$?
  grep -E "^FAIL|^  " "$work/$name.check" | head -20
  [ "$rc" -eq 0 ] && [ "$checked" -eq 0 ]
  check "$name: exact trace content" $? "exit $rc; $(summary_of "$work/$name.check")"
  [ "$mode" = node ] && return
  nsys_capture "$program" cuda,nvtx "$build/bin/$program"
  python3 tests/gpu/check_cuda_report.py --compare-nsys "$work/$name.prof.sqlite" \
    "$work/$program.nsys.sqlite" > "$work/$name.cmp" 2>&1
  check "$name: same GPU ops and NVTX as nsys" $? "$(summary_of "$work/$name.cmp")"
  cat "$work/$name.cmp"
}

# nvidia_stats_agree <name> <report.sqlite>: NVIDIA's nsys stats and prof stats print the same
# tables on prof's report.
nvidia_stats_agree() {
  local name=$1 report=$2 differing=""
  for r in cuda_api_sum cuda_gpu_kern_sum cuda_gpu_mem_time_sum cuda_gpu_mem_size_sum cuda_kern_exec_sum nvtx_sum; do
    nsys stats -q -r "$r" -f csv -o "$work/$name.nvidia" "$report" > "$work/$name.nvidia.$r.log" 2>&1
    "$prof" stats -q -r "$r" -f csv -o "$work/$name.ours" "$report" > /dev/null 2>&1
    if ! cmp -s "$work/$name.nvidia_$r.csv" "$work/$name.ours_$r.csv"; then
      differing+="$r "
      diff "$work/$name.nvidia_$r.csv" "$work/$name.ours_$r.csv" | head -6
      tail -2 "$work/$name.nvidia.$r.log"
    fi
  done
  [ -z "$differing" ]; check "$name: nsys stats on prof's report = prof stats" $? "${differing:-6 reports identical}"
}

run_pair() {  # run_pair <name> <trace> <python script>: the script plain, under prof, under nsys
  local name=$1 trace=$2 script=$3 t0 t1
  t0=$(seconds); python3 "$script" > "$work/$name.plain.out" 2>&1; local plain_rc=$?; t1=$(seconds)
  local plain_s; plain_s=$(elapsed "$t0" "$t1")
  t0=$(seconds); "$prof" profile -t "$trace" -s none -f true -o "$work/$name.prof" python3 "$script" > "$work/$name.prof.out" 2>&1; local prof_rc=$?; t1=$(seconds)
  local prof_s; prof_s=$(elapsed "$t0" "$t1")
  t0=$(seconds); nsys_capture "$name" "$trace" python3 "$script"; local nsys_rc=$?; t1=$(seconds)
  local nsys_s; nsys_s=$(elapsed "$t0" "$t1")
  echo "== $name: exit plain=$plain_rc prof=$prof_rc nsys=$nsys_rc; wall s plain=$plain_s prof=$prof_s nsys=$nsys_s"
  tail -3 "$work/$name.prof.out"
  [ "$prof_rc" -eq "$plain_rc" ] && [ "$prof_rc" -eq 0 ]; check "$name: exit code passes through" $? "plain=$plain_rc prof=$prof_rc"
  info "$name: wall time" "plain ${plain_s}s, prof ${prof_s}s, nsys ${nsys_s}s (incl. report writing)"
  for report in nvtx_pushpop_sum osrt_sum; do
    "$prof" stats -q -r "$report" -f csv "$work/$name.prof.sqlite" > "$work/$name.prof.$report.csv" 2>&1
    "$prof" stats -q -r "$report" -f csv "$work/$name.nsys.sqlite" > "$work/$name.nsys.$report.csv" 2>&1
  done
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
  # Every CUDA API function with nsys's count (cuLibrary*, cuKernelGetFunction: docs/cuda.md).
  python3 tests/gpu/compare_api_rows.py "$work/$name.prof.sqlite" "$work/$name.nsys.sqlite" \
    > "$work/$name.api.cmp" 2>&1
  check "$name: CUDA API rows per function as nsys's" $? "$(tail -1 "$work/$name.api.cmp")"
  head -40 "$work/$name.api.cmp"
  # Where nsys saw a function prof lacks: per process and thread, to tell exit paths from the loop.
  python3 - "$work/$name.prof.sqlite" "$work/$name.nsys.sqlite" "$work/$name.osrt.cmp" <<'PY'
import ast, sqlite3, sys
missing = ast.literal_eval(open(sys.argv[3]).read().splitlines()[-1].split(":", 1)[1].strip())
for label, path in (("prof", sys.argv[1]), ("nsys", sys.argv[2])):
    db = sqlite3.connect(path)
    for function in missing:
        rows = db.execute(
            "SELECT (o.globalTid >> 24) & 0xFFFFFF, o.globalTid & 0xFFFFFF, count(*), min(o.start), "
            "max(o.end), (SELECT max(end) FROM OSRT_API) FROM OSRT_API o JOIN StringIds s "
            "ON s.id = o.nameId WHERE s.value = ? GROUP BY o.globalTid", (function,)).fetchall()
        for pid, tid, n, first, last, end in rows:
            print(f"{label} {function}: pid {pid} tid {tid} calls {n} from {first} to {last} "
                  f"({(end - last) / 1e6:.1f} ms before the last OSRT call)")
PY
}

# nvtx_enclosure: NVTX push/pop ranges stamped with the CPU's counter (issue 29,
# collector/counter_clock.h; only where the kernel's clocksource is that counter) still enclose the
# CUDA calls made inside them: launch_loop.py (one kernel launch in each "step" range) under
# prof -t cuda,nvtx with the counter clock, then with PROF_NVTX_CLOCK=monotonic (the old clock):
# both exact, and the same enclosure counts.
nvtx_enclosure() {
  local iterations=5000 warmup=500 clock assign rc summary counter_counts="" monotonic_counts=""
  local clocksource; clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
  echo "== NVTX ranges around CUDA calls, counter clock vs PROF_NVTX_CLOCK=monotonic" \
    "(launch_loop.py $iterations $warmup; clocksource $clocksource)"
  for clock in counter monotonic; do
    assign=""; [ "$clock" = monotonic ] && assign=PROF_NVTX_CLOCK=monotonic
    env $assign "$prof" profile -t cuda,nvtx -f true -o "$work/enclosure_$clock" \
      python3 bench/cuda_overhead/launch_loop.py "$iterations" "$warmup" > "$work/enclosure_$clock.out" 2>&1
    rc=$?
    python3 tests/gpu/check_nvtx_enclosure.py "$work/enclosure_$clock.sqlite" step $((iterations + warmup)) \
      > "$work/enclosure_$clock.check" 2>&1
    [ $? -eq 0 ] && [ $rc -eq 0 ]
    check "nvtx clock $clock: ranges enclose their CUDA calls" $? "exit $rc; $(summary_of "$work/enclosure_$clock.check")"
    cat "$work/enclosure_$clock.check"; tail -2 "$work/enclosure_$clock.out"
    summary=$(grep -o 'enclosed=[0-9]* api_enclosed=[0-9]*' "$work/enclosure_$clock.check")
    if [ "$clock" = counter ]; then counter_counts=$summary; else monotonic_counts=$summary; fi
  done
  local stamped; stamped=$(grep -m1 '^NVTX clock' "$work/enclosure_counter.check")
  info "nvtx clock: host clocksource $clocksource" "default run: ${stamped:-no report}"
  [ -n "$counter_counts" ] && [ "$counter_counts" = "$monotonic_counts" ]
  check "nvtx clock: counter and monotonic give the same enclosure" $? \
    "counter: ${counter_counts:-none}; monotonic: ${monotonic_counts:-none}"
}

if [[ " $sections " == *" cuda "* ]]; then
  echo "== CUDA test programs"
  for program in cuda_streams cuda_graph cuda_threads; do cuda_program "$program"; done
  cuda_program cuda_graph node
fi

if [[ " $sections " == *" torch "* ]]; then
  run_pair torch_mix cuda,nvtx,osrt tests/data/nsys-torch_mix/torch_mix.py
  python3 tests/gpu/check_cuda_report.py --compare-nsys "$work/torch_mix.prof.sqlite" \
    "$work/torch_mix.nsys.sqlite" > "$work/torch_mix.cmp" 2>&1
  check "torch_mix: same kernels, copies, memsets, NVTX as nsys" $? "$(summary_of "$work/torch_mix.cmp")"
  cat "$work/torch_mix.cmp"
  nvidia_stats_agree torch_mix "$work/torch_mix.prof.sqlite"
  nvtx_enclosure
fi

if [[ " $sections " == *" training "* ]]; then
  # The training loop of bench/ (syncs, event records and queries every step: the pinned-memory
  # allocator's events) under both profilers: the same kernels, copies, syncs and event records.
  # How often the allocator polls its events, and so how many it creates, depends on timing.
  echo "== train_loop.py under prof and nsys (-t cuda,nvtx)"
  "$prof" profile -t cuda,nvtx -s none -q -f true -o "$work/train_loop.prof" python3 bench/workloads/train_loop.py \
    > "$work/train_loop.prof.out" 2>&1
  train_rc=$?
  nsys_capture train_loop cuda,nvtx python3 bench/workloads/train_loop.py
  python3 tests/gpu/check_cuda_report.py --compare-nsys --timing-dependent \
    "$work/train_loop.prof.sqlite" "$work/train_loop.nsys.sqlite" > "$work/train_loop.cmp" 2>&1
  [ $? -eq 0 ] && [ $train_rc -eq 0 ]
  check "train_loop: same kernels, copies, syncs and event records as nsys" $? \
    "exit $train_rc; $(summary_of "$work/train_loop.cmp")"
  grep -E "^(PASS|FAIL|INFO)|<--" "$work/train_loop.cmp" | head -60
fi

if [[ " $sections " == *" dataloader "* ]]; then
  run_pair dataloader cuda,nvtx,osrt tests/gpu/dataloader_step.py
  processes=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM PROCESSES').fetchone()[0])" "$work/dataloader.prof.sqlite")
  [ "${processes:-0}" -ge 3 ]; check "dataloader: worker processes traced" $? "PROCESSES rows: $processes"
  # With sampling on (prof's default), the workers' blocked calls carry their stacks: each 4 ms
  # sleep of a worker names the dataset's __getitem__, from what prof-reader read while it ran.
  "$prof" profile -t cuda,nvtx,osrt -f true -o "$work/dataloader_backtraces" python3 tests/gpu/dataloader_step.py \
    > "$work/dataloader_backtraces.out" 2>&1
  backtraces_rc=$?
  python3 - "$work/dataloader_backtraces.sqlite" > "$work/dataloader_backtraces.cmp" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
main = db.execute("SELECT DISTINCT (globalTid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME").fetchall()
rows = db.execute("""
    SELECT (o.globalTid >> 24) & 16777215, coalesce(s.value, '')
    FROM OSRT_API o JOIN StringIds n ON n.id = o.nameId
    LEFT JOIN OSRT_CALLCHAINS c ON c.id = o.callchainId AND c.stackDepth = 0
    LEFT JOIN StringIds s ON s.id = c.symbol
    WHERE n.value = 'clock_nanosleep' AND o.end - o.start >= 3000000""").fetchall()
workers = {}
for pid, leaf in rows:
    if (pid,) in main:
        continue
    named, total = workers.get(pid, (0, 0))
    workers[pid] = (named + (leaf == "SlowDataset.__getitem__"), total + 1)
named = sum(n for n, _ in workers.values())
total = sum(t for _, t in workers.values())
print(f"{len(workers)} workers, {named} of {total} sleeps name SlowDataset.__getitem__: {workers}")
sys.exit(0 if len(workers) >= 2 and total >= 60 and named == total else 1)
PY
  [ $? -eq 0 ] && [ $backtraces_rc -eq 0 ]
  check "dataloader: workers' blocked calls name their Python frames" $? \
    "exit $backtraces_rc; $(summary_of "$work/dataloader_backtraces.cmp")"
  # Under the defaults (-b auto) the workers are named by their role and native frames are named.
  python3 - "$work/dataloader_backtraces.sqlite" > "$work/dataloader_names.cmp" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = [name for (name,) in db.execute("SELECT name FROM PROCESSES ORDER BY pid")]
frames, unnamed = db.execute(
    "SELECT count(*), sum(f.symbol IN (SELECT id FROM StringIds WHERE value LIKE '0x%')) "
    "FROM SAMPLING_CALLCHAINS f").fetchone()
print(f"processes {names}; {unnamed} of {frames} sampled frames unnamed")
sys.exit(0 if names.count("pt_data_worker") >= 2 else 1)
PY
  check "dataloader: workers named pt_data_worker (defaults)" $? "$(summary_of "$work/dataloader_names.cmp")"
fi

if [[ " $sections " == *" spawn "* ]]; then
  echo "== CUDA in spawned children (multiprocessing spawn, subprocess, os.system)"
  "$prof" profile -t cuda,osrt -f true -o "$work/spawn" python3 tests/gpu/spawn_cuda.py \
    > "$work/spawn.out" 2>&1
  spawn_rc=$?
  python3 - "$work/spawn.sqlite" "$work/spawn.out" > "$work/spawn.check" 2>&1 <<'PY'
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
printed = {who: (int(pid), int(n)) for who, pid, n in
           re.findall(r"^(\w+) pid=(\d+) kernels=(\d+)$", open(sys.argv[2]).read(), re.M)}
kernels = dict(db.execute("SELECT (k.globalPid >> 24) & 0xFFFFFF, count(*) FROM "
                          "CUPTI_ACTIVITY_KIND_KERNEL k JOIN ("
                          "SELECT DISTINCT globalPid FROM PROCESSES) p "
                          "ON k.globalPid = p.globalPid GROUP BY 1").fetchall())
failed = 0
for who in ("parent", "spawn", "subprocess", "system"):
    pid, expected = printed.get(who, (None, None))
    got = kernels.get(pid, 0)
    ok = pid is not None and got == expected
    failed += not ok
    print(("PASS" if ok else "FAIL"), f"{who}: pid {pid} fill kernels {got}, expected {expected}")
print(f"PASS: 0 failed; {len(printed)} processes with their kernels" if not failed
      else f"FAIL: {failed} processes without their kernels: {kernels}")
sys.exit(1 if failed else 0)
PY
  [ $? -eq 0 ] && [ $spawn_rc -eq 0 ]; check "spawn: every child's CUDA kernels under its pid" $? "exit $spawn_rc; $(summary_of "$work/spawn.check")"
  cat "$work/spawn.check"; tail -3 "$work/spawn.out"
fi

if [[ " $sections " == *" abrupt "* ]]; then
  echo "== processes that end abruptly: DataLoader workers (os._exit), a terminated Pool, SIGKILL"
  rm -f "$work/abrupt.log"
  "$prof" profile -t cuda,nvtx,osrt -f true -o "$work/abrupt_workers" \
    python3 tests/gpu/abrupt_endings.py workers "$work/abrupt.log" > "$work/abrupt_workers.out" 2>&1
  workers_rc=$?
  python3 - "$work/abrupt_workers.sqlite" "$work/abrupt.log" > "$work/abrupt_workers.check" 2>&1 <<'PY'
import collections, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
logged = collections.Counter(int(line) for line in open(sys.argv[2]))
kept = dict(db.execute("SELECT (globalTid >> 24) & 0xFFFFFF, count(*) FROM NVTX_EVENTS "
                       "WHERE text = 'item' GROUP BY 1").fetchall())
# PROF_SESSION's values are text.
lost = {name: int(value) for name, value in db.execute(
    "SELECT name, value FROM PROF_SESSION WHERE name IN ('dropped_records', 'torn_records')")}
# A range whose worker was terminated between its push and its log line is kept but not logged.
wrong = {pid: (n, kept.get(pid, 0)) for pid, n in logged.items() if not 0 <= kept.get(pid, 0) - n <= 1}
launches, with_kernel = db.execute(
    "SELECT count(*), count(k.correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
    "ON s.id = r.nameId LEFT JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = r.correlationId "
    "AND k.globalPid = (r.globalTid & ~0xFFFFFF) WHERE s.value LIKE 'cudaLaunchKernel%'").fetchone()
print(f"workers {len(logged)}, ranges logged {sum(logged.values())}, kept {sum(kept.values())}, "
      f"losses {lost}, launches {launches} with kernel {with_kernel}")
ok = not wrong and len(logged) >= 7 and all(v == 0 for v in lost.values()) and launches == with_kernel > 0
print(("PASS: every worker's ranges kept" if ok else f"FAIL: per pid (logged, kept) {wrong}"))
sys.exit(0 if ok else 1)
PY
  [ $? -eq 0 ] && [ $workers_rc -eq 0 ]; check "abrupt: DataLoader and terminated Pool workers keep every range" $? "exit $workers_rc; $(summary_of "$work/abrupt_workers.check")"
  cat "$work/abrupt_workers.check"; tail -3 "$work/abrupt_workers.out"
  workers_lost=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM PROF_STATS WHERE name = 'cuda_kernels_lost'\").fetchone()[0])" "$work/abrupt_workers.sqlite")
  [ "$workers_lost" = 0 ]; check "abrupt: a training run that ends normally loses no kernel" $? "cuda_kernels_lost $workers_lost"
  # end expected-exit kernels: every kernel after the synchronize arrives (CUPTI's buffers are
  # flushed by prof's thread, at _exit and at SIGTERM), or, killed at once, is counted lost.
  for ending in "sigkill 137 all" "_exit 3 all" "sigterm 143 all" "segv 139 all" "sigkill_now 137 counted"; do
    read -r end expected_rc kernels_rule <<< "$ending"
    "$prof" profile -t cuda,nvtx -f true -o "$work/abrupt_$end" \
      python3 tests/gpu/abrupt_endings.py "$end" 3000 > "$work/abrupt_$end.out" 2>&1
    end_rc=$?
    python3 - "$work/abrupt_$end.sqlite" 3000 "$kernels_rule" > "$work/abrupt_$end.check" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
expected, rule = int(sys.argv[2]), sys.argv[3]
(mark,) = db.execute("SELECT start FROM NVTX_EVENTS WHERE text = 'launches'").fetchone()
def api(pattern, after=mark):
    return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                      "s.id = r.nameId WHERE s.value LIKE ? AND r.start > ? AND r.returnValue = 0",
                      (pattern, after)).fetchone()[0]
launches, syncs = api("cudaLaunchKernel%"), api("%Synchronize%")
all_launches = api("cudaLaunchKernel%", -1) + api("cuLaunchKernel%", -1)
# The kernel table exists only once a row arrived, as in nsys's export.
has_kernels = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'").fetchone()[0]
def kernels(after):
    return db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > ?",
                      (after,)).fetchone()[0] if has_kernels else 0
(lost,) = db.execute("SELECT value FROM PROF_STATS WHERE name = 'cuda_kernels_lost'").fetchone()
after_mark, total = kernels(mark), kernels(-1)
ok = launches == expected and syncs >= 1 and total + lost == all_launches
if rule == "all":
    ok = ok and after_mark == expected and lost == 0
print(f"{'PASS' if ok else 'FAIL'}: launches kept {launches} of {expected}, synchronize rows {syncs}, "
      f"kernel rows {after_mark} after the mark, {total} in all + cuda_kernels_lost {lost} "
      f"vs {all_launches} launch calls")
sys.exit(0 if ok else 1)
PY
    [ $? -eq 0 ] && [ "$end_rc" -eq "$expected_rc" ]
    check "abrupt: CUDA program ended by $end keeps its kernels ($kernels_rule)" $? "exit $end_rc; $(summary_of "$work/abrupt_$end.check")"
    cat "$work/abrupt_$end.check"; tail -3 "$work/abrupt_$end.out"
  done
fi

if [[ " $sections " == *" memory "* ]]; then
  echo "== GPU memory usage (--cuda-memory-usage=true)"
  "$prof" profile -t cuda --cuda-memory-usage=true -q -f true -o "$work/mem" \
    python3 tests/gpu/memory_usage.py "$work/mem.json" > "$work/mem.out" 2>&1 &&
    "$prof" stats -q -r cuda_gpu_mem_peak -f csv -o "$work/mem" "$work/mem.sqlite"
  python3 tests/gpu/check_memory_report.py "$work/mem.sqlite" "$work/mem.json" \
    "$work/mem_cuda_gpu_mem_peak.csv" > "$work/mem.check" 2>&1
  check "memory usage: allocation rows and peak match torch" $? "$(summary_of "$work/mem.check")"
  cat "$work/mem.out" "$work/mem.check"
fi

if [[ " $sections " == *" capture "* ]]; then
  echo "== capture range: cudaProfilerStart/Stop (-c cudaProfilerApi)"
  "$prof" profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -q -f true \
    -o "$work/capture" python3 tests/gpu/capture_profiler_api.py > "$work/capture.out" 2>&1
  capture_rc=$?
  python3 - "$work/capture.sqlite" > "$work/capture.check" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ranges = [r[0] for r in db.execute("SELECT text FROM NVTX_EVENTS WHERE eventType = 59 ORDER BY start")]
fills = db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"
                   " WHERE s.value LIKE '%elementwise%'").fetchone()[0]
window = db.execute("SELECT min(start), max(end) FROM NVTX_EVENTS").fetchone()
outside = db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start < ? OR end > ?",
                     (window[0], window[1] + 10_000_000)).fetchone()[0]
print("NVTX ranges:", ranges, "fill kernels:", fills, "kernels outside the range:", outside)
sys.exit(0 if ranges == ["inside"] and fills == 30 and outside == 0 else 1)
PY
  check "capture: -c cudaProfilerApi keeps exactly the started window" $? \
    "exit $capture_rc; $(tail -1 "$work/capture.check")"
fi

# training_variant <slow|fixed>: the loop's steady step time plain and under prof, and prof analyze's
# summary of prof's report (docs/analyze.md's worked example).
training_variant() {
  local variant=$1 flag=""
  [ "$variant" = fixed ] && flag=--fixed
  python3 examples/pytorch/dataloader_training.py $flag > "$work/train_$variant.plain.out" 2>&1
  "$prof" profile -t cuda,nvtx,osrt -q -f true -o "$work/train_$variant" \
    python3 examples/pytorch/dataloader_training.py $flag > "$work/train_$variant.prof.out" 2>&1
  "$prof" analyze "$work/train_$variant.sqlite" > "$work/train_$variant.summary.txt" 2>&1
  "$prof" analyze -q -f csv "$work/train_$variant.sqlite" > "$work/train_$variant.summary.csv" 2>&1
  for rule in sync_hotspots gap_cause_sum overlap; do
    "$prof" analyze -q -r "$rule" "$work/train_$variant.sqlite" >> "$work/train_$variant.rules.txt" 2>&1
  done
  echo "== training loop, $variant: $(tail -1 "$work/train_$variant.plain.out") (plain);" \
    "$(tail -1 "$work/train_$variant.prof.out") (under prof)"
  cat "$work/train_$variant.summary.txt" "$work/train_$variant.rules.txt"
}
step_ms() { sed -n 's/^steady_step_ms=\([0-9.]*\).*/\1/p' "$1"; }
# recoverable_ns <summary.csv>: the summed "Recoverable (ns)" of the findings
recoverable_ns() {
  python3 -c "import csv,sys; print(sum(int(r['Recoverable (ns)'] or 0) for r in csv.DictReader(open(sys.argv[1]))))" "$1"
}

if [[ " $sections " == *" analyze "* ]]; then
  training_variant slow
  training_variant fixed
  slow_ms=$(step_ms "$work/train_slow.plain.out"); fixed_ms=$(step_ms "$work/train_fixed.plain.out")
  python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) < float(sys.argv[1]) else 1)" "${slow_ms:-0}" "${fixed_ms:-0}"
  check "training: the tutorial's fixes cut the step time" $? "plain: ${slow_ms} ms -> ${fixed_ms} ms per step"
  grep -q "waiting for input data" "$work/train_slow.summary.txt" &&
    grep -q "pageable memory" "$work/train_slow.summary.txt"
  check "training: summary names the input wait and the pageable copies" $? \
    "$(grep -c '^ *[0-9]' "$work/train_slow.summary.txt") rows"
  slow_ns=$(recoverable_ns "$work/train_slow.summary.csv"); fixed_ns=$(recoverable_ns "$work/train_fixed.summary.csv")
  [ "${fixed_ns:-1}" -lt "${slow_ns:-0}" ]
  check "training: the findings shrink after the fixes" $? "recoverable ${slow_ns} ns -> ${fixed_ns} ns"
fi

if [[ " $sections " == *" libraries "* ]]; then
  echo "== cuBLAS/cuDNN calls and Python stacks (--trace=cublas,cudnn --python-backtrace=cuda)"
  # The stack reader against this python3's own traceback (the probe library is copied from a
  # test build into $build/lib, docs/testing-gpu.md).
  if [ -f "$build/lib/libprof_python_stack_probe.so" ]; then
    python3 tests/python_stack/python_stack_test.py "$build/lib/libprof_python_stack_probe.so" \
      > "$work/stack_reader.out" 2>&1
    check "python stack reader: frames and lines equal traceback's ($(python3 -V))" $? \
      "$(tail -1 "$work/stack_reader.out")"
    cat "$work/stack_reader.out"
  fi
  "$prof" profile -t cuda,nvtx,cublas,cudnn --python-backtrace=cuda -q -f true -o "$work/lib" \
    python3 tests/gpu/library_calls.py "$work/lib.json" > "$work/lib.out" 2>&1
  "$prof" stats -q -r cuda_api_py_sum -f csv -o "$work/lib" "$work/lib.sqlite" > /dev/null 2>&1
  "$prof" analyze -q -r sync_hotspots -f csv "$work/lib.sqlite" > "$work/lib_sync_hotspots.csv" 2>&1
  nsys_capture lib_nsys cuda,nvtx,cublas,cudnn --cuda-memory-usage=true python3 tests/gpu/library_calls.py
  python3 tests/gpu/check_library_report.py "$work/lib.sqlite" "$work/lib.json" \
    "$work/lib_cuda_api_py_sum.csv" "$work/lib_sync_hotspots.csv" "$work/lib_nsys.nsys.sqlite" \
    > "$work/lib.check" 2>&1
  check "libraries: cuBLAS/cuDNN calls enclose their kernels; .item() sync on its line" $? \
    "$(summary_of "$work/lib.check")"
  cat "$work/lib.out" "$work/lib.check"
  head -8 "$work/lib_cuda_api_py_sum.csv"
fi

if [[ " $sections " == *" sampling "* ]]; then
  # CPU sampling from the launcher (issue 26, perf_event_open) beside CUDA/CUPTI: torch_mix.py
  # under -t cuda,nvtx without -s, then with -s process-tree -b auto and -b fp (timeout: no
  # deadlock). Where the runtime refuses perf_event_open, prof warns and traces the rest: INFO.
  paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo unknown)
  echo "== CPU sampling with CUDA (torch_mix.py; perf_event_paranoid $paranoid)"
  info "sampling: host" "perf_event_paranoid $paranoid; $(nproc) CPUs; kernel $(uname -r)"
  torch_mix=tests/data/nsys-torch_mix/torch_mix.py
  timeout 300 "$prof" profile -t cuda,nvtx -s none -f true -o "$work/sampling_off" python3 "$torch_mix" \
    > "$work/sampling_off.out" 2>&1
  echo "without -s: exit $?; $(grep '^done' "$work/sampling_off.out")"
  for backtrace in auto fp; do
    name=sampling_$backtrace
    t0=$(seconds)
    timeout 300 "$prof" profile -t cuda,nvtx -s process-tree -b "$backtrace" -f true -o "$work/$name" \
      python3 "$torch_mix" > "$work/$name.out" 2>&1
    rc=$?; t1=$(seconds)
    echo "-- -b $backtrace: exit $rc in $(elapsed "$t0" "$t1") s"; tail -4 "$work/$name.out"
    refused=""
    if grep -q "CPU sampling is off" "$work/$name.out"; then
      refused=--refused
      info "sampling -b $backtrace: sampling off" "$(grep -m1 'CPU sampling is off' "$work/$name.out" | cut -c1-150)"
    elif grep -q "perf_event_open refused" "$work/$name.out"; then
      # The program samples itself instead (docs/sampling.md, "Fallback"): samples still expected.
      info "sampling -b $backtrace: perf_event_open refused, fallback" "$(grep -m1 'perf_event_open refused' "$work/$name.out" | cut -c1-150)"
    fi
    python3 tests/gpu/check_sampling_report.py $refused "$work/$name.sqlite" "$work/sampling_off.sqlite" \
      "$work/$name.out" > "$work/$name.check" 2>&1
    [ $? -eq 0 ] && [ $rc -eq 0 ]
    check "sampling -b $backtrace: exit 0, output intact, samples, kernels as without -s" $? \
      "exit $rc; $(summary_of "$work/$name.check")"
    cat "$work/$name.check"
    "$prof" stats -r cpu_sample_sum "$work/$name.sqlite" > "$work/$name.cpu_sample_sum.txt" 2>&1
    stats_rc=$?
    echo "prof stats -r cpu_sample_sum (exit $stats_rc), first 15 lines:"; head -15 "$work/$name.cpu_sample_sum.txt"
    # Python frames (on with -s): torch_mix's main thread runs Python.
    python_frames=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE unwindMethod = 1001').fetchone()[0])" "$work/$name.sqlite" 2>/dev/null || echo 0)
    info "sampling -b $backtrace: Python frames" "$python_frames frames with unwindMethod 1001"
    rows=$("$prof" stats -q -r cpu_sample_sum -f csv "$work/$name.sqlite" 2>/dev/null | tail -n +2 | grep -c .)
    if [ -n "$refused" ]; then
      info "sampling -b $backtrace: cpu_sample_sum" "exit $stats_rc, $rows rows (sampling refused)"
    else
      [ $stats_rc -eq 0 ] && [ "$rows" -gt 0 ]
      check "sampling -b $backtrace: prof stats -r cpu_sample_sum prints rows" $? "exit $stats_rc, $rows rows"
    fi
  done
fi

if [[ " $sections " == *" python_truth "* ]]; then
  # Issue 42 under the GPU host's Python (3.12): the ground-truth programs' shares and lines with
  # prof's defaults (a CPython process samples itself), then the crash stress test, 20 runs.
  echo "== Python samples against ground truth ($(python3 --version))"
  "$prof" profile -t none -f true -o "$work/python_truth" python3 tests/sampling/python_truth.py 1.0 \
    > "$work/python_truth.out" 2> "$work/python_truth.err"
  truth_rc=$?
  tail -3 "$work/python_truth.err"
  python3 tests/gpu/check_python_truth.py "$work/python_truth.sqlite" "$work/python_truth.out" \
    tests/sampling/python_truth.py > "$work/python_truth.check" 2>&1
  [ $? -eq 0 ] && [ $truth_rc -eq 0 ]
  check "python truth: shares within 5 points, lines, each moment once" $? \
    "exit $truth_rc; $(summary_of "$work/python_truth.check")"
  cat "$work/python_truth.check"
  churn_failed=0
  for run in $(seq 20); do
    out=$(timeout 120 "$prof" profile -t osrt --osrt-threshold=0 --osrt-backtrace-threshold=1 -f true \
      -o "$work/churn" python3 tests/python_stack/frame_churn.py 300 2> "$work/churn.err")
    rc=$?
    if [ $rc -ne 0 ] || [ "$out" != "ok" ]; then
      churn_failed=$((churn_failed + 1)); echo "churn run $run: exit $rc"; tail -3 "$work/churn.err"
    fi
  done
  [ $churn_failed -eq 0 ]
  check "python frame churn: 20 runs, none crashed" $? "$churn_failed of 20 failed"
fi

if [[ " $sections " == *" pytorch "* ]]; then
  echo "== --pytorch on a CUDA build: emit_nvtx's operator ranges, module ranges, kernels inside"
  "$prof" profile -t cuda,nvtx --pytorch=autograd-shapes-nvtx,functions-trace -f true \
    -o "$work/pytorch" python3 tests/pytorch/torch_training.py --cuda > "$work/pytorch.out" 2>&1
  pytorch_rc=$?
  ! grep -q "prof: --pytorch" "$work/pytorch.out"
  check "pytorch: set up without a complaint" $? "$(grep 'prof: --pytorch' "$work/pytorch.out")"
  python3 tests/gpu/check_pytorch_ranges.py "$work/pytorch.sqlite" > "$work/pytorch.check" 2>&1
  [ $? -eq 0 ] && [ $pytorch_rc -eq 0 ]
  check "pytorch: operator and module ranges, every step's kernel inside an operator" $? \
    "exit $pytorch_rc; $(tail -3 "$work/pytorch.check")"
  cat "$work/pytorch.check"
  "$prof" export --type jsonl -q -f true -o "$work/pytorch.jsonl" "$work/pytorch.sqlite" \
    > "$work/pytorch.export.out" 2>&1
  python3 tests/gpu/check_module_backward.py "$work/pytorch.sqlite" "$work/pytorch.jsonl" \
    > "$work/module_backward.check" 2>&1
  check "pytorch: export's module backward slices on autograd's thread" $? \
    "$(grep -c ^PASS "$work/module_backward.check") PASS; $(grep ^FAIL "$work/module_backward.check" | head -2 | tr '\n' ';')"
  cat "$work/module_backward.check"
  # pytorch_op_sum's GPU columns against torch.profiler's CUDA time per operator, same steps.
  timeout 300 python3 tests/gpu/pytorch_gpu_time.py --torch-profiler "$work/pytorch_gpu_time.torch.csv" \
    > "$work/pytorch_gpu_time.torch.out" 2>&1
  timeout 300 "$prof" profile -t cuda,nvtx --pytorch=autograd-nvtx -c cudaProfilerApi \
    --capture-range-end=stop -f true \
    -o "$work/pytorch_gpu_time" python3 tests/gpu/pytorch_gpu_time.py > "$work/pytorch_gpu_time.out" 2>&1
  "$prof" stats -r pytorch_op_sum --format csv "$work/pytorch_gpu_time.sqlite" \
    > "$work/pytorch_gpu_time.op_sum.csv" 2> "$work/pytorch_gpu_time.stats.err"
  python3 tests/gpu/check_pytorch_gpu_time.py "$work/pytorch_gpu_time.op_sum.csv" \
    "$work/pytorch_gpu_time.torch.csv" > "$work/pytorch_gpu_time.check" 2>&1
  check "pytorch: pytorch_op_sum GPU time per operator as torch.profiler's" $? \
    "$(summary_of "$work/pytorch_gpu_time.check")"
  cat "$work/pytorch_gpu_time.check"
  head -20 "$work/pytorch_gpu_time.op_sum.csv"
fi

if [[ " $sections " == *" gpu_metrics "* ]]; then
  # GPU metrics (issue 30, --gpu-metrics-devices): gpu_metrics_workload.py's copy, gemm and idle
  # ranges under prof and under nsys with the same flags; check_gpu_metrics.py checks prof's values
  # against the workload and its metric names against nsys's, and prints both sides' means.
  echo "== GPU metrics (tests/gpu/gpu_metrics_workload.py, --gpu-metrics-devices=all, 10 kHz)"
  workload=tests/gpu/gpu_metrics_workload.py
  t0=$(seconds)
  timeout 300 python3 "$workload" > "$work/gpu_metrics_plain.out" 2>&1
  t1=$(seconds)
  timeout 300 "$prof" profile -t cuda,nvtx --gpu-metrics-devices=all -f true -o "$work/gpu_metrics.prof" \
    python3 "$workload" > "$work/gpu_metrics.prof.out" 2>&1
  rc=$?; t2=$(seconds)
  tail -5 "$work/gpu_metrics.prof.out"
  grep -q "^done" "$work/gpu_metrics.prof.out"
  [ $? -eq 0 ] && [ $rc -eq 0 ]
  check "gpu_metrics: prof exits 0 with the program's output" $? "exit $rc"
  nsys profile --trace=cuda,nvtx --sample=none --cpuctxsw=none --gpu-metrics-devices=all -f true \
    -o "$work/gpu_metrics.nsys" python3 "$workload" > "$work/gpu_metrics.nsys.out" 2>&1
  t3=$(seconds)
  nsys export --type sqlite -f true -o "$work/gpu_metrics.nsys.sqlite" "$work/gpu_metrics.nsys.nsys-rep" \
    > /dev/null 2>&1
  info "gpu_metrics: wall s" "plain $(elapsed "$t0" "$t1"), prof $(elapsed "$t1" "$t2"), nsys $(elapsed "$t2" "$t3") (nsys without export)"
  python3 tests/gpu/check_gpu_metrics.py "$work/gpu_metrics.prof.sqlite" "$work/gpu_metrics.nsys.sqlite" \
    --frequency 10000 > "$work/gpu_metrics.check" 2>&1
  check "gpu_metrics: copy/gemm/idle values, sample count, names as nsys" $? "$(summary_of "$work/gpu_metrics.check")"
  cat "$work/gpu_metrics.check"
  "$prof" profile --gpu-metrics-devices=help > "$work/gpu_metrics.devices.txt" 2>&1
  info "gpu_metrics: devices" "$(tr '\n' ';' < "$work/gpu_metrics.devices.txt" | cut -c1-150)"
fi

if [[ " $sections " == *" bench "* ]]; then
  echo "== CUDA overhead (bench/cuda_overhead: 20,000 tiny kernels, NVTX range each)"
  # 8 rounds of the three modes the budget compares fit one device call with the sections below;
  # LAUNCH_MODES adds other modes; the breakdown section below splits the added time.
  MODES=${LAUNCH_MODES:-plain prof nsys} DEVICE_LIBS=$PWD/.device-libs \
    bash bench/cuda_overhead/compare.sh "$prof" "$nsys_bin" "${LAUNCH_ROUNDS:-8}" | tee "$work/cuda_overhead.txt"
  info "cuda overhead" "$(tail -2 "$work/cuda_overhead.txt" | tr '\n' ';')"
  echo "== CUDA overhead on the training loop (bench/workloads/train_loop.py, ms per step)"
  WORKLOAD=train_loop MODES="plain prof nsys" DEVICE_LIBS=$PWD/.device-libs \
    bash bench/cuda_overhead/compare.sh "$prof" "$nsys_bin" 4 | tee "$work/train_overhead.txt"
  info "training loop overhead" "$(tail -2 "$work/train_overhead.txt" | tr '\n' ';')"
  echo "== NVTX floods: back-to-back pairs kept, 10 M paced ranges' report ready (bench/run.py)"
  python3 bench/run.py --only nvtx_cpu,nvtx_events --nsys none --runs 2 --prof "$prof" \
    --json "$work/nvtx-bench.json" 2>&1 | grep -vE "^\s+round" | tee "$work/nvtx_bench.txt"
  info "nvtx floods" "$(grep -E "records prof dropped|report ready after exit, s" "$work/nvtx_bench.txt" | tr -s ' ' | tr '\n' ';')"
fi

if [[ " $sections " == *" in_program "* ]]; then
  # Issue 29's figures, as the 2-core build machine measures them: what prof and nsys add to an NVTX
  # pair (paced and back to back) and to filtered, recorded and sleeping OS runtime calls.
  echo "== In-program cost per traced event (bench/run.py --quick: nvtx_paced, nvtx_cpu, osrt_cpu)"
  python3 bench/run.py --quick --only nvtx_paced,nvtx_cpu,osrt_cpu --runs "${IN_PROGRAM_ROUNDS:-4}" \
    --prof "$prof" --nsys "$nsys_bin" --device-libs "$PWD/.device-libs" \
    --json "$work/in-program-bench.json" 2>&1 | grep -vE "^\s+round" | tee "$work/in_program.txt"
  info "in-program cost" "$(grep -E "added" "$work/in_program.txt" | tr -s ' ' | cut -c1-90 | tr '\n' ';')"
fi

if [[ " $sections " == *" breakdown "* ]]; then
  echo "== Where launch_loop's added time goes: CUPTI alone (libcupti_floor.so), then prof's parts"
  # 100,000 iterations: at 20,000 the plain loop's rounds spread wider than the parts measured.
  MODES="plain floor_callbacks floor_activity floor_all prof_cuda prof_nvtx prof nsys" \
    ITERATIONS=${BREAKDOWN_ITERATIONS:-100000} DEVICE_LIBS=$PWD/.device-libs \
    bash bench/cuda_overhead/compare.sh "$prof" "$nsys_bin" "${BREAKDOWN_ROUNDS:-5}" | tee "$work/breakdown.txt"
  info "launch_loop breakdown" "$(grep -E "^(floor|prof)" "$work/breakdown.txt" | awk '{print $1 " +" $6}' | tr '\n' ';')"
fi

echo; echo "== summary"
printf '%s\n' "${table[@]}"
exit $((failures > 0))
