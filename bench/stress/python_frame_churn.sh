#!/usr/bin/env bash
# Issue 42's crash stress test, at length: `prof profile` of tests/python_stack/frame_churn.py (frames,
# data-stack chunks, generators and code objects made and freed in three threads and two fork
# children, one _exiting and one SIGKILLed after its burst) with every OS-runtime call traced and
# carrying a backtrace, and the default sampling, while CPU hogs compete for the cores; N runs
# (default 100) under each prof option set below. Prints one line per set: runs, runs that did not
# end with exit 0 and "ok", and the exit codes seen. CI runs 3 such runs (tests/python_stack).
#
# Usage: bench/stress/python_frame_churn.sh [RUNS] [PROF] [PYTHON] [SETS]   (SETS: how many of the
# option sets below, in order; default all)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs="${1:-100}"
prof="${2:-$root/build/bin/prof}"
python="${3:-/usr/bin/python3}"
sets="${4:-3}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq "$(nproc)"); do (while :; do :; done) & done
option_sets=(
  "-t osrt --osrt-threshold=0 --osrt-backtrace-threshold=1"
  "-t nvtx,osrt"
  "-t nvtx,osrt --pytorch=autograd-nvtx,functions-trace --osrt-threshold=0 --osrt-backtrace-threshold=1"
)
for options in "${option_sets[@]:0:$sets}"; do
  failed=0
  codes=""
  for run in $(seq "$runs"); do
    # shellcheck disable=SC2086
    out="$("$prof" profile $options -f true -o "$work/r" "$python" \
      "$root/tests/python_stack/frame_churn.py" 300 2>"$work/err")"
    code=$?
    if [ "$code" -ne 0 ] || [ "$out" != "ok" ]; then
      failed=$((failed + 1))
      codes="$codes $code"
      [ "$failed" -eq 1 ] && cp "$work/err" "$work/first_failure.txt" && tail -3 "$work/err"
    fi
  done
  echo "$options: $runs runs, $failed failed${codes:+ (exit codes:$codes)}"
done
