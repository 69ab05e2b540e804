// What `prof profile` was asked to sample of the GPUs' performance counters:
// --gpu-metrics-devices, --gpu-metrics-frequency and --gpu-metrics-set, parsed by
// cli/gpu_metrics_flags (docs/gpu-metrics.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::collector {

struct GpuMetricsOptions {
  enum class Devices { kNone, kCudaVisible, kAll, kListed };
  Devices devices = Devices::kNone;
  std::vector<uint32_t> device_ids;  // kListed: CUDA device ordinals, as prof's CUDA sees them
  uint32_t frequency_hz = 10000;     // samples per second, per device
  std::string set_name;              // empty: each device's default set (metric_sets.h)

  bool any() const { return devices != Devices::kNone; }
};

}  // namespace prof::collector
