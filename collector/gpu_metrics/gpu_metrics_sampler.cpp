#include "collector/gpu_metrics/gpu_metrics_sampler.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "collector/counter_clock.h"
#include "common/signals_blocked.h"

namespace prof::collector {

std::unique_ptr<GpuMetricsSampler> StartGpuMetrics(const GpuMetricsOptions& options,
                                                   const PmSamplingApiFactory& make_api,
                                                   std::vector<std::string>* notes) {
  std::unique_ptr<PmSamplingApi> api = make_api ? make_api() : nullptr;
  if (api == nullptr) {
    notes->push_back("GPU metrics are not collected: this prof was built without CUPTI's headers");
    return nullptr;
  }
  std::vector<SampledGpu> gpus = StartSampling(options, api.get(), notes);
  if (gpus.empty()) return nullptr;
  return std::make_unique<GpuMetricsSampler>(std::move(api), std::move(gpus));
}

struct GpuMetricsSampler::GpuState {
  explicit GpuState(PmSamplingApi* api) : clock([api] { return api->ReadClocks(); }) {}

  CounterClock clock;             // sample clock -> CLOCK_MONOTONIC
  uint64_t previous_start = 0;    // of the last sample decoded; 0 before the first
  bool failed = false;            // a decode failed: said once, the device is left alone
  std::vector<PmSample> samples;  // scratch
};

GpuMetricsSampler::GpuMetricsSampler(std::unique_ptr<PmSamplingApi> api,
                                     std::vector<SampledGpu> gpus)
    : api_(std::move(api)), gpus_(std::move(gpus)) {
  states_.reserve(gpus_.size());
  for (size_t i = 0; i < gpus_.size(); ++i) states_.emplace_back(api_.get());
  // Asynchronous signals stay with the collector thread (architecture.md, "Signals").
  const ScopedSignalsBlocked blocked;
  thread_ = std::thread([this] { Run(); });
  // Linux allows 15 characters: "prof-gpu-metrics" would not fit.
  pthread_setname_np(thread_.native_handle(), "prof-gpumetrics");
}

GpuMetricsSampler::~GpuMetricsSampler() { Stop(); }

void GpuMetricsSampler::Stop() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void GpuMetricsSampler::TakeReady(std::vector<GpuMetricValue>* out) {
  out->clear();
  const std::lock_guard<std::mutex> lock(mutex_);
  std::swap(*out, ready_);
}

void GpuMetricsSampler::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(kDecodePeriodMs),
                         [this] { return stopping_; })) {
    lock.unlock();
    DecodeAll();
    lock.lock();
  }
  lock.unlock();
  for (SampledGpu& gpu : gpus_) {
    if (const Status stopped = gpu.sampling->Stop(); !stopped.ok()) {
      spdlog::warn("warning: GPU metrics of GPU {}: {}", gpu.device.id, stopped.message());
    }
  }
  DecodeAll();  // what the hardware collected before it stopped
}

void GpuMetricsSampler::DecodeAll() {
  for (uint32_t gpu = 0; gpu < gpus_.size(); ++gpu) {
    if (!states_[gpu].failed) Decode(gpu, &states_[gpu]);
  }
  if (pass_.empty()) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (ready_.empty()) {
    std::swap(ready_, pass_);
  } else {
    ready_.insert(ready_.end(), pass_.begin(), pass_.end());
  }
  pass_.clear();
}

void GpuMetricsSampler::Decode(uint32_t gpu, GpuState* state) {
  const SampledGpu& sampled = gpus_[gpu];
  state->samples.clear();
  bool overflowed = false;
  if (const Status decoded = sampled.sampling->Decode(&state->samples, &overflowed);
      !decoded.ok()) {
    state->failed = true;
    spdlog::warn("warning: GPU metrics of GPU {} end here: {}", sampled.device.id,
                 decoded.message());
    return;
  }
  const uint64_t interval = sampled.interval_ns;
  for (const PmSample& sample : state->samples) {
    // Samples follow each other every interval; a longer gap held samples the hardware dropped.
    if (state->previous_start != 0 && sample.start_timestamp > state->previous_start) {
      const uint64_t periods =
          (sample.start_timestamp - state->previous_start + interval / 2) / interval;
      if (periods > 1) lost_samples_.fetch_add(periods - 1, std::memory_order_relaxed);
    }
    state->previous_start = sample.start_timestamp;
    const uint64_t time_ns = state->clock.ToMonotonicNs(sample.start_timestamp);
    for (size_t i = 0; i < sample.values.size() && i < sampled.metric_ids.size(); ++i) {
      // The first sample after a start has no counts yet: CUPTI evaluates it to NaN.
      if (!std::isfinite(sample.values[i])) continue;
      pass_.push_back({gpu, static_cast<uint32_t>(sampled.metric_ids[i]), sample.start_timestamp,
                       time_ns, static_cast<int64_t>(std::llround(sample.values[i]))});
    }
    for (const MetricDifference& difference : sampled.differences) {
      if (std::max(difference.minuend, difference.subtrahend) >= sample.values.size()) continue;
      const double value = sample.values[difference.minuend] - sample.values[difference.subtrahend];
      if (!std::isfinite(value)) continue;
      pass_.push_back({gpu, static_cast<uint32_t>(difference.metric_id), sample.start_timestamp,
                       time_ns, static_cast<int64_t>(std::llround(std::max(value, 0.0)))});
    }
  }
}

}  // namespace prof::collector
