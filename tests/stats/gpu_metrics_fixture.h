// A hand-made report with GPU metrics (GPU_METRICS, TARGET_INFO_GPU_METRICS) and known values, for
// gpu_metrics_sum, prof analyze's gpu_underuse and summary, the Perfetto export and the merge.
//
// Four NVTX push/pop ranges "step" on thread 1 of pid 100, 0.5 s each: [0, 0.5 s], [0.5 s, 1 s],
// [1 s, 1.5 s], [1.5 s, 2 s] (the steady state is steps 2-4). One sample every 0.1 s, at 0 s ...
// 1.9 s (20 per series; a sample's value covers the 0.1 s from its timestamp):
// - GPU 0 (typeId 256): "SMs Active [Throughput %]" (metricId 0) 20 until 1 s, 80 after;
//   "SM Issue [Throughput %]" (metricId 1) 10 until 1 s, 40 after;
// - GPU 1 (typeId 257, ids swapped: readers must join on typeId and metricId): "SM Issue
//   [Throughput %]" (metricId 0) 15 and "SMs Active [Throughput %]" (metricId 1) 25 throughout.
// Kernels of pid 100, each launched by a cudaLaunchKernel call 1 us before it on thread 1:
// - GPU 0: in each step, a kernel from 1 ms after the step's start to 30 ms before its end
//   ("gemm_small" in steps 1-2, "gemm_big" in steps 3-4), then "relu" for 20 ms: kernels cover
//   97.8 % of each step;
// - GPU 1: "copy_kernel" over the first half of each step (50 %).
#pragma once

#include <cstdint>
#include <string>

namespace prof::stats::test {

inline constexpr int64_t kGpuMetricsStepNs = 500'000'000;

// Writes <fresh temp dir>/<name>.sqlite; returns its path.
std::string MakeGpuMetricsReport(const std::string& name);

}  // namespace prof::stats::test
