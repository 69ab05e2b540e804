#!/usr/bin/env bash
# CUDA tracing overhead of prof against nsys on launch_loop.py (tiny kernels, one NVTX range each).
# Runs the loop in each mode of MODES (default "plain prof nsys"), <runs> rounds, each round starting
# with the next mode so that no mode always runs first, and prints per mode the median, min and max
# us/iter (the loop's own timer), the median added over plain, and the median wall seconds (whole
# command, including start-up and report writing), then
# ratio = (prof us/iter - plain) / (nsys us/iter - plain): below 1 means prof adds less than nsys.
# Modes: plain (no profiler), prof (-t cuda,nvtx), prof_cuda (-t cuda), prof_nvtx (-t nvtx),
# prof_pystack (-t cuda,nvtx --python-backtrace=cuda), nsys (--trace=cuda,nvtx --sample=none --cpuctxsw=none). ITERATIONS (default 20000) sets the loop.
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
loop_py="$(cd "$(dirname "$0")" && pwd)/launch_loop.py"
device_libs=${DEVICE_LIBS:-$PWD/.device-libs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

modes=${MODES:-plain prof nsys}
iterations=${ITERATIONS:-20000}
run_mode() {  # run_mode <mode> <run>: the loop's output on stdout
  case $1 in
    plain) python3 "$loop_py" $iterations ;;
    prof) "$prof" profile -t cuda,nvtx -q -f true -o "$work/prof-$2" python3 "$loop_py" $iterations ;;
    prof_cuda) "$prof" profile -t cuda -q -f true -o "$work/prof-$2" python3 "$loop_py" $iterations ;;
    prof_nvtx) "$prof" profile -t nvtx -q -f true -o "$work/prof-$2" python3 "$loop_py" $iterations ;;
    prof_pystack) "$prof" profile -t cuda,nvtx --python-backtrace=cuda -q -f true -o "$work/prof-$2" \
                    python3 "$loop_py" $iterations ;;
    nsys) LD_LIBRARY_PATH=$device_libs "$nsys" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none \
            -f true -o "$work/nsys-$2" python3 "$loop_py" $iterations ;;
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
    us=$(sed -n 's/^us_per_iter=\([0-9.]*\).*/\1/p' "$work/out")
    [[ -n $us ]] || { echo "$mode run $run printed no us_per_iter:" >&2; tail -5 "$work/out" >&2; exit 1; }
    echo "$mode $us $start $end"
  done
done >"$work/results"

# Lines: <mode> <us_per_iter> <start s> <end s>
python3 - "$work/results" <<'PY'
import statistics, sys
us, wall = {}, {}
for line in open(sys.argv[1]):
    mode, per_iter, start, end = line.split()
    us.setdefault(mode, []).append(float(per_iter))
    wall.setdefault(mode, []).append(float(end) - float(start))
median = {mode: statistics.median(values) for mode, values in us.items()}
print(f"{'mode':<12} {'runs':>4} {'us/iter':>9} {'min':>8} {'max':>8} {'added us':>9} {'wall s':>8}")
for mode in us:
    print(f"{mode:<12} {len(us[mode]):>4} {median[mode]:>9.3f} {min(us[mode]):>8.3f} {max(us[mode]):>8.3f} "
          f"{median[mode] - median['plain']:>9.3f} {statistics.median(wall[mode]):>8.2f}")
if all(mode in median for mode in ("plain", "prof", "nsys")):  # MODES may leave one out
    added_nsys = median["nsys"] - median["plain"]
    ratio = (median["prof"] - median["plain"]) / added_nsys if added_nsys > 0 else float("nan")
    print(f"ratio (prof added us/iter) / (nsys added us/iter) = {ratio:.2f}")
PY
