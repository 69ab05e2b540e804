// PM sampling results recorded in memory, behind the same boundary as the real CUDA driver and
// CUPTI (collector/gpu_metrics/pm_sampling_api.h): devices, a failure per device, batches of
// decoded samples each Decode() hands out, and a sample clock that runs `offset` ns ahead of
// CLOCK_MONOTONIC. Everything on the prof side of the boundary runs for real.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collector/gpu_metrics/gpu_metrics_sampler.h"
#include "collector/gpu_metrics/pm_sampling_api.h"
#include "injection/protocol/clock.h"

namespace prof::test {

// What one recorded device does once sampling starts.
struct RecordedDevice {
  collector::GpuDevice device;
  collector::PmFailure failure = collector::PmFailure::kNone;  // kNone: sampling starts
  std::vector<size_t> collected;                               // empty: every metric asked for
  // Samples each Decode() returns in turn (after Stop(), all that are left; then none), their
  // timestamps relative to the sample clock at Start().
  std::vector<std::vector<collector::PmSample>> batches;
};

// Everything the recorded API was asked, for tests that check what prof did.
struct RecordedCalls {
  int loads = 0;
  int starts = 0;
  std::vector<std::vector<std::string>> metrics;  // per Start(), the CUPTI metric names
  std::vector<uint64_t> intervals_ns;
  uint64_t start_clock = 0;  // the sample clock when the last device started
};

class RecordedPmSampling : public collector::PmSamplingApi {
 public:
  static constexpr uint64_t kClockOffsetNs = 1'000'000'000'000;

  RecordedPmSampling(std::vector<RecordedDevice> devices, RecordedCalls* calls,
                     std::string load_error = "")
      : devices_(std::move(devices)), calls_(calls), load_error_(std::move(load_error)) {}

  Status Load() override {
    ++calls_->loads;
    return load_error_.empty() ? Status::Ok() : Status::Error(load_error_);
  }

  StatusOr<std::vector<collector::GpuDevice>> Devices() override {
    std::vector<collector::GpuDevice> devices;
    for (const RecordedDevice& recorded : devices_) devices.push_back(recorded.device);
    return devices;
  }

  collector::PmStart Start(const collector::GpuDevice& device,
                           const std::vector<std::string>& metrics, uint64_t interval_ns) override;

  protocol::CounterSample ReadClocks() override {
    const uint64_t now = protocol::MonotonicNowNs();
    return {now + kClockOffsetNs, now};
  }

 private:
  std::vector<RecordedDevice> devices_;
  RecordedCalls* calls_;
  std::string load_error_;
};

// A factory for ProfileOptions::gpu_metrics_api / StartGpuMetrics.
inline collector::PmSamplingApiFactory RecordedFactory(std::vector<RecordedDevice> devices,
                                                       RecordedCalls* calls,
                                                       std::string load_error = "") {
  return [devices = std::move(devices), calls, load_error] {
    return std::make_unique<RecordedPmSampling>(devices, calls, load_error);
  };
}

}  // namespace prof::test
