// Samples the GPUs' performance counters on a thread of prof's own, `prof-gpumetrics`: one PM
// sampling session per device (sampled_gpus.h) whatever the number of traced processes, nothing
// added to the program's threads. Every kDecodePeriodMs the thread decodes what each device's
// hardware buffer holds, maps the samples' times onto CLOCK_MONOTONIC (collector/counter_clock.h,
// from (sample clock, CLOCK_MONOTONIC) pairs it reads itself) and queues one value per metric for
// the collector thread (gpu_metric_rows.h), so samples reach the report as they arrive.
//
// Lifecycle: Start() on the launcher's thread before it lowers its priority (a decoder that falls
// behind lets the hardware buffer overflow); Stop() once the program's tree has ended: sampling
// stops, the rest is decoded, the thread joined. TakeReady() from the collector thread any time.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collector/gpu_metrics/pm_sampling_api.h"
#include "collector/gpu_metrics/sampled_gpus.h"

namespace prof::collector {

// One metric's value in one sample of one GPU.
struct GpuMetricValue {
  uint32_t gpu = 0;            // index into GpuMetricsSampler::gpus()
  uint32_t metric_id = 0;      // position in the GPU's metric set
  uint64_t raw_timestamp = 0;  // the sample's start in the sample clock (ns)
  uint64_t time_ns = 0;        // the same instant in CLOCK_MONOTONIC
  int64_t value = 0;           // rounded: percent, Hz (metric_sets.h)
};

class GpuMetricsSampler {
 public:
  static constexpr int kDecodePeriodMs = 10;

  // Takes over `gpus` (sampling already started) and the API that started them; starts the thread.
  GpuMetricsSampler(std::unique_ptr<PmSamplingApi> api, std::vector<SampledGpu> gpus);
  ~GpuMetricsSampler();
  GpuMetricsSampler(const GpuMetricsSampler&) = delete;
  GpuMetricsSampler& operator=(const GpuMetricsSampler&) = delete;

  void Stop();
  // Moves the values decoded so far into *out (cleared first), in sample order per GPU.
  void TakeReady(std::vector<GpuMetricValue>* out);

  // The sampled GPUs; their `sampling` is the thread's until Stop() returns.
  const std::vector<SampledGpu>& gpus() const { return gpus_; }
  // Samples the hardware dropped (its buffer was full), from the gaps between samples.
  uint64_t lost_samples() const { return lost_samples_.load(std::memory_order_relaxed); }

 private:
  struct GpuState;

  void Run();
  void DecodeAll();
  void Decode(uint32_t gpu, GpuState* state);

  std::unique_ptr<PmSamplingApi> api_;
  std::vector<SampledGpu> gpus_;
  std::vector<GpuState> states_;      // prof-gpumetrics only, one per GPU
  std::vector<GpuMetricValue> pass_;  // prof-gpumetrics only: this decode pass's values

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;              // guarded by mutex_
  std::vector<GpuMetricValue> ready_;  // guarded by mutex_
  std::atomic<uint64_t> lost_samples_{0};
  std::thread thread_;
};

// Makes the CUDA/CUPTI boundary: the real libraries (cupti_pm_sampling.h) or a test's recording.
// Called only when GPU metrics are asked for: `--gpu-metrics-devices=none` loads nothing.
using PmSamplingApiFactory = std::function<std::unique_ptr<PmSamplingApi>()>;

// The sampler of the GPUs `options` asks for, sampling; null when none samples. What is not
// sampled, and why, goes into *notes (sampled_gpus.h); `make_api` null: this build has no CUPTI.
std::unique_ptr<GpuMetricsSampler> StartGpuMetrics(const GpuMetricsOptions& options,
                                                   const PmSamplingApiFactory& make_api,
                                                   std::vector<std::string>* notes);

}  // namespace prof::collector
