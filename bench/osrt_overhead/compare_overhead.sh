#!/usr/bin/env bash
# Runs osrt_overhead_bench without prof, under `prof profile --trace=none` (libprof_core.so alone)
# and under `prof profile --trace=osrt`, alternating the three for several rounds so that all see
# the same machine load. Prints, per loop, the best per-iteration time of each mode and the extra
# cost per interposed call of osrt tracing (against no prof and against prof without osrt).
# Usage: compare_overhead.sh <prof> <osrt_overhead_bench> [rounds] [iterations]
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 <prof> <osrt_overhead_bench> [rounds] [iterations]" >&2
  exit 2
fi
prof=$1
bench=$2
rounds=${3:-5}
iterations=${4:-2000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_mode() {
  case $1 in
    plain) "$bench" "$iterations" ;;
    *) "$prof" profile --trace="$1" -s none -q -f true -o "$work/report-$1" "$bench" "$iterations" ;;
  esac
}

for ((round = 0; round < rounds; ++round)); do
  for mode in plain none osrt; do
    run_mode "$mode" | sed "s/^/$mode /"
  done
done >"$work/results"

# Lines: <mode> <loop> calls_per_iteration=<n> min_ns=<x> median_ns=<y>
awk '
  {
    mode = $1; loop = $2
    split($3, calls, "="); split($4, best, "=")
    if (!(loop in order)) { order[loop] = ++loops; names[loops] = loop }
    per_call[loop] = calls[2]
    key = mode SUBSEP loop
    if (!(key in min) || best[2] + 0 < min[key]) min[key] = best[2] + 0
  }
  END {
    printf "%-18s %5s %10s %12s %12s %16s %16s\n", "loop", "calls", "plain_ns",
           "trace=none_ns", "trace=osrt_ns", "osrt-plain/call", "osrt-none/call"
    for (i = 1; i <= loops; ++i) {
      loop = names[i]
      plain = min["plain" SUBSEP loop]; none = min["none" SUBSEP loop]; osrt = min["osrt" SUBSEP loop]
      printf "%-18s %5d %10.2f %12.2f %12.2f %16.2f %16.2f\n", loop, per_call[loop], plain, none,
             osrt, (osrt - plain) / per_call[loop], (osrt - none) / per_call[loop]
    }
  }' "$work/results"
