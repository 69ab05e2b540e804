#!/usr/bin/env bash
# CUDA tracing overhead of prof against nsys on launch_loop.py (tiny kernels, one NVTX range each) or,
# with WORKLOAD=train_loop, on bench/workloads/train_loop.py (a conv net with a DataLoader: syncs and
# events every step; its figure is ms per step).
# Runs the loop in each mode of MODES (default "plain prof nsys"), <runs> rounds, each round starting
# with the next mode so that no mode always runs first, and prints per mode the median, min and max
# of the loop's own timer (us_per_iter or ms_per_step), the median added over plain, and the median wall seconds (whole
# command, including start-up and report writing), then
# ratio = (prof - plain) / (nsys - plain): below 1 means prof adds less than nsys; the same ratio of
# the modes' fastest rounds follows.
# Modes: plain (no profiler), prof (-t cuda,nvtx), prof_cuda (-t cuda), prof_nvtx (-t nvtx),
# prof_pystack (-t cuda,nvtx --python-backtrace=cuda), floor_callbacks / floor_activity / floor_all
# (no prof: CUPTI's own cost, libcupti_floor.so from cupti_floor.cpp, FLOOR_LIB; "all" is
# callbacks, activity and the timestamp callback, everything prof asks CUPTI for), prof_alt
# (another build's prof, ALT_PROF, -t cuda,nvtx: A/B comparisons), nsys (--trace=cuda,nvtx
# --sample=none --cpuctxsw=none); the defaults of both: prof_defaults (no flag: -t cuda,nvtx,osrt,
# sampling and context switches) against nsys_defaults (--trace=cuda,nvtx,osrt, sampling and
# context switches of the process tree: nsys's defaults less opengl), and prof's defaults one part
# at a time: prof_osrt (-t cuda,nvtx,osrt -s none --cpuctxsw=none), prof_sampling (-t cuda,nvtx,
# sampling, no context switches), prof_ctxsw (-t cuda,nvtx -s none --cpuctxsw=process-tree).
# ITERATIONS (default 20000) sets the loop.
# nsys's importer needs LD_LIBRARY_PATH=$PWD/.device-libs (docs/testing-gpu.md); it is set for the
# nsys runs only (override with DEVICE_LIBS).
# Usage: compare.sh <prof> <nsys> [runs]
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 <prof> <nsys> [runs]" >&2
  exit 2
fi
prof=$1
nsys=$2
runs=${3:-3}
here="$(cd "$(dirname "$0")" && pwd)"
case ${WORKLOAD:-launch_loop} in
  launch_loop) loop_py=$here/launch_loop.py metric=us_per_iter ;;
  train_loop) loop_py=$here/../workloads/train_loop.py metric=ms_per_step ;;
  *) echo "$0: WORKLOAD is launch_loop or train_loop" >&2; exit 2 ;;
esac
device_libs=${DEVICE_LIBS:-$PWD/.device-libs}
floor_lib=${FLOOR_LIB:-$(cd "$(dirname "$prof")/../lib" && pwd)/libcupti_floor.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

modes=${MODES:-plain prof nsys}
# launch_loop's iteration count; train_loop keeps its defaults (300 steps).
loop_args=()
[[ $metric == us_per_iter ]] && loop_args=("${ITERATIONS:-20000}")
run_mode() {  # run_mode <mode> <run>: the loop's output on stdout
  case $1 in
    plain) python3 "$loop_py" "${loop_args[@]}" ;;
    prof) "$prof" profile -t cuda,nvtx -s none -q -f true -o "$work/prof-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    prof_cuda) "$prof" profile -t cuda -s none -q -f true -o "$work/prof-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    prof_nvtx) "$prof" profile -t nvtx -s none -q -f true -o "$work/prof-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    prof_pystack) "$prof" profile -t cuda,nvtx -s none --python-backtrace=cuda -q -f true -o "$work/prof-$2" \
                    python3 "$loop_py" "${loop_args[@]}" ;;
    floor_callbacks | floor_activity) CUPTI_FLOOR=${1#floor_} CUDA_INJECTION64_PATH=$floor_lib \
                                        python3 "$loop_py" "${loop_args[@]}" ;;
    floor_all) CUPTI_FLOOR=callbacks,activity,clock CUDA_INJECTION64_PATH=$floor_lib \
                 python3 "$loop_py" "${loop_args[@]}" ;;
    prof_alt) "${ALT_PROF:?prof_alt needs ALT_PROF}" profile -t cuda,nvtx -s none -q -f true -o "$work/alt-$2" \
                python3 "$loop_py" "${loop_args[@]}" ;;
    prof_defaults) "$prof" profile -q -f true -o "$work/prof-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    prof_osrt) "$prof" profile -t cuda,nvtx,osrt -s none --cpuctxsw=none -q -f true -o "$work/prof-$2" \
                 python3 "$loop_py" "${loop_args[@]}" ;;
    prof_sampling) "$prof" profile -t cuda,nvtx --cpuctxsw=none -q -f true -o "$work/prof-$2" \
                     python3 "$loop_py" "${loop_args[@]}" ;;
    prof_ctxsw) "$prof" profile -t cuda,nvtx -s none --cpuctxsw=process-tree -q -f true -o "$work/prof-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    nsys) LD_LIBRARY_PATH=$device_libs "$nsys" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none \
            -f true -o "$work/nsys-$2" python3 "$loop_py" "${loop_args[@]}" ;;
    nsys_defaults) LD_LIBRARY_PATH=$device_libs "$nsys" profile --trace=cuda,nvtx,osrt --sample=process-tree \
                     --cpuctxsw=process-tree -f true -o "$work/nsys-$2" python3 "$loop_py" "${loop_args[@]}" ;;
  esac
}

read -ra mode_list <<<"$modes"
for ((run = 1; run <= runs; ++run)); do
  # Each round starts with the next mode, so no mode always runs first (after the previous
  # round's report writing) or always follows the same neighbour.
  for ((i = 0; i < ${#mode_list[@]}; ++i)); do
    mode=${mode_list[$(((i + run - 1) % ${#mode_list[@]}))]}
    start=$EPOCHREALTIME
    run_mode "$mode" "$run" >"$work/out" 2>&1 || { echo "$mode run $run failed:" >&2; tail -5 "$work/out" >&2; exit 1; }
    end=$EPOCHREALTIME
    value=$(sed -n "s/^$metric=\([0-9.]*\).*/\1/p" "$work/out")
    [[ -n $value ]] || { echo "$mode run $run printed no $metric:" >&2; tail -5 "$work/out" >&2; exit 1; }
    echo "$mode $value $start $end"
  done
done >"$work/results"

# Lines: <mode> <figure> <start s> <end s>
python3 - "$work/results" "$metric" <<'PY'
import statistics, sys
us, wall = {}, {}
for line in open(sys.argv[1]):
    mode, per_iter, start, end = line.split()
    us.setdefault(mode, []).append(float(per_iter))
    wall.setdefault(mode, []).append(float(end) - float(start))
median = {mode: statistics.median(values) for mode, values in us.items()}
unit = "us/iter" if sys.argv[2] == "us_per_iter" else "ms/step"
print(f"{'mode':<12} {'runs':>4} {unit:>9} {'min':>8} {'max':>8} {'added':>9} {'wall s':>8}")
for mode in us:
    print(f"{mode:<12} {len(us[mode]):>4} {median[mode]:>9.3f} {min(us[mode]):>8.3f} {max(us[mode]):>8.3f} "
          f"{median[mode] - median['plain']:>9.3f} {statistics.median(wall[mode]):>8.2f}")
def added_ratio(figure, ours, theirs):  # figure: mode -> us/iter or ms/step
    added_nsys = figure[theirs] - figure["plain"]
    return (figure[ours] - figure["plain"]) / added_nsys if added_nsys > 0 else float("nan")
# Minima too: a loop is only ever slowed by the machine, so each mode's fastest round is the
# estimate least touched by other load (the medians still move by ~1 us/iter between runs).
fastest = {mode: min(values) for mode, values in us.items()}
for ours, theirs in (("prof", "nsys"), ("prof_defaults", "nsys_defaults")):
    if all(mode in median for mode in ("plain", ours, theirs)):  # MODES may leave one out
        print(f"ratio ({ours} added {unit}) / ({theirs} added {unit}) = "
              f"{added_ratio(median, ours, theirs):.2f}")
        print(f"ratio of the minima ({ours} added) / ({theirs} added) = "
              f"{added_ratio(fastest, ours, theirs):.2f}")
PY
