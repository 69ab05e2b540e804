#!/usr/bin/env bash
# Builds prof's libFuzzer targets with clang in build-fuzz and runs each for SECONDS seconds
# (default 300) on a copy of its checked-in seed corpus; a crash stops the run, leaves its input
# in build-fuzz/findings/<target>/ and makes the script fail.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(stream_decoder_fuzzer report_reader_fuzzer)
build=build-fuzz
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DPROF_BUILD_FUZZERS=ON -DPROF_BUILD_TESTS=OFF \
  -DPROF_BUILD_BENCH=OFF "${launcher[@]}"
cmake --build "$build" -j"${JOBS:-$(nproc)}" --target "${targets[@]}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  findings="$build/findings/$target"
  mkdir -p "$corpus" "$findings"
  cp -n "tests/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  echo "== $target: ${seconds}s"
  "$build/bin/$target" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
    -artifact_prefix="$findings/" "$corpus"
done
