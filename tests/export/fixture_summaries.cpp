#include "tests/export/fixture_summaries.h"

#include <algorithm>

namespace prof::exporter::test {
namespace {

Lines Sorted(Lines lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

Lines CudaFixtureSummary() {
  return Sorted({
      "track 100 1 main",
      "track 16777216 0 GPU 0: Test GPU",
      "track 16777216 33554433 Stream 7 (pid 100)",
      "track 16777216 33554434 Stream 8 (pid 100)",
      "track 16777216 33554435 Stream 9 (pid 200)",
      // push/pop ranges on their threads; the start/end range :async on its process
      "count nvtx 100 1 5",
      "count nvtx 100 2 1",
      "count nvtx 100 0 1",
      "count cuda_api 100 1 6",
      "count cuda_api 100 2 1",
      "count cuda_api 200 1 1",
      "count cuda_kernel 16777216 33554433 2",
      "count cuda_kernel 16777216 33554434 1",
      "count cuda_kernel 16777216 33554435 1",
      "count cuda_memcpy 16777216 33554433 2",
      "count cuda_memset 16777216 33554433 1",
      "depth 100 1 outer 0",
      "depth 100 1 inner 1",
      "depth 100 1 leaf 2",
      "depth 100 1 idle 1",
      "depth 100 1 inner 0",
      "depth 100 2 other 0",
      // every API call with GPU work, per process (P2 reuses correlation id 1); not the
      // synchronize call
      "flow cudaLaunchKernel_v7000 -> kern_a(int)",
      "flow cudaLaunchKernel_v7000 -> kern_a(int)",
      "flow cudaLaunchKernel_v7000 -> kern_b<float>(float *)",
      "flow cudaLaunchKernel_v7000 -> kern_b<float>(float *)",
      "flow cudaMemcpyAsync -> [CUDA memcpy Host-to-Device]",
      "flow cudaMemsetAsync -> [CUDA memset]",
      "flow cudaGetDeviceProperties_v12000 -> [CUDA memcpy Device-to-Host]",
      // cudaMemcpyAsync [300,450] starts inside :inner [100,400] and ends after it
      "overlap 100 1 1",
  });
}

Lines NvtxFixtureSummary() {
  return Sorted({
      // 7 push/pop ranges that ended and the mark on T1; the start/end ranges on pid 100
      "count nvtx 100 1 8",
      "count nvtx 100 2 2",
      "count nvtx 200 5 1",
      "count nvtx 100 0 4",
      "depth 100 1 outer 0",
      "depth 100 1 inner 1",
      "depth 100 1 load 2",
      "depth 100 1 inner 1",
      "depth 100 1 leaf 2",
      "depth 100 1 outer 0",
      "depth 100 1 inner 1",
      "depth 100 2 outer 0",
      "depth 100 2 inner 1",
      "depth 200 5 load 0",
  });
}

}  // namespace prof::exporter::test
