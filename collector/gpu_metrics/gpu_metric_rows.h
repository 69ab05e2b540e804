// Writes GPU metric values into the report of the capture window that holds each
// (CaptureRouter::WriterAt): a TARGET_INFO_GPU_METRICS row per (typeId, metricId) before the
// metric's first value in that report, then GPU_METRICS rows; at the end, TARGET_INFO_GPU rows for
// the sampled GPUs that no traced process described. Collector thread only.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collector/capture_router.h"
#include "collector/gpu_metrics/gpu_metrics_sampler.h"

namespace prof::collector {

class GpuMetricRows {
 public:
  // `gpus`: the sampler's (GpuMetricValue::gpu indexes them); `session_start_ns`: CLOCK_MONOTONIC
  // at session start (report times are ns since then).
  GpuMetricRows(CaptureRouter* router, const std::vector<SampledGpu>* gpus,
                uint64_t session_start_ns)
      : router_(router), gpus_(gpus), session_start_ns_(session_start_ns) {}

  void Write(const GpuMetricValue& value);
  // Writes what `sampler` decoded since the last call.
  void Import(GpuMetricsSampler* sampler);
  // Once the streams have ended: TARGET_INFO_GPU of every sampled GPU, in every report, where the
  // CUDA tracer wrote none (it knows more: the CUPTI device record).
  void DescribeGpus();

  uint64_t values_written() const { return values_written_; }

 private:
  CaptureRouter* router_;
  const std::vector<SampledGpu>* gpus_;
  uint64_t session_start_ns_;
  // The (gpu, metric id) pairs each report describes already.
  std::unordered_map<const storage::ReportWriter*, std::set<std::pair<uint32_t, uint32_t>>>
      described_;
  std::vector<GpuMetricValue> ready_;  // scratch for Import
  uint64_t values_written_ = 0;
};

}  // namespace prof::collector
