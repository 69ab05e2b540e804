#!/bin/sh
# perf_gate.sh: fail a CI job when a candidate build of a program is slower than its base build.
#
#   examples/ci/perf_gate.sh BASE_TREE NEW_TREE [prof diff options...]
#
# Runs the benchmark $BENCH from inside each tree (a built checkout of the base and of the
# candidate), $RUNS times each, alternating base and new so that machine noise hits both sides,
# profiles every run with `prof profile`, then compares the two sets with `prof diff`. Prints the
# comparison, writes it as markdown for a pull-request comment, and exits as prof diff does:
# 0 nothing regressed, 1 something regressed, 2 error.
#
# Settings (environment):
#   BENCH   the benchmark command, run in each tree (default: ./build/bin/training_loop)
#   RUNS    profiled runs per build (default: 3; 3 or more give prof diff a noise floor)
#   TRACE   prof profile --trace value (default: cuda,nvtx,osrt)
#   PROF    the prof executable (default: prof)
#   OUT     where reports and perf_diff.md go (default: ./perf-gate)
set -eu

if [ "$#" -lt 2 ]; then
  echo "usage: $0 BASE_TREE NEW_TREE [prof diff options...]" >&2
  exit 2
fi
base_tree=$1
new_tree=$2
shift 2

BENCH=${BENCH:-./build/bin/training_loop}
RUNS=${RUNS:-3}
TRACE=${TRACE:-cuda,nvtx,osrt}
PROF=${PROF:-prof}
OUT=${OUT:-./perf-gate}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# profile TREE REPORT: one profiled run of the benchmark in TREE. A failing benchmark fails the
# job with prof's exit code (the program's). $BENCH is split into words on purpose.
profile() {
  # shellcheck disable=SC2086
  (cd "$1" && $PROF profile --trace="$TRACE" --force-overwrite=true -q -o "$2" $BENCH)
}

base_reports=""
new_reports=""
run=1
while [ "$run" -le "$RUNS" ]; do
  profile "$base_tree" "$OUT/base_$run.sqlite"
  profile "$new_tree" "$OUT/new_$run.sqlite"
  base_reports="$base_reports $OUT/base_$run.sqlite"
  new_reports="$new_reports $OUT/new_$run.sqlite"
  run=$((run + 1))
done

# The markdown file for a pull-request comment, then the same verdict in the job's log.
status=0
# shellcheck disable=SC2086  # the report lists are split on purpose
$PROF diff -q -f markdown --force-overwrite -o "$OUT/perf_diff.md" \
  --base $base_reports --new $new_reports "$@" || status=$?
if [ "$status" -ne 2 ]; then
  # shellcheck disable=SC2086
  $PROF diff --base $base_reports --new $new_reports "$@" || true
fi
case "$status" in
  0) echo "perf gate: no regression (reports in $OUT)" ;;
  1) echo "perf gate: performance regression, see above or $OUT/perf_diff.md" >&2 ;;
  *) echo "perf gate: prof diff failed" >&2 ;;
esac
exit "$status"
