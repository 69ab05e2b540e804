// The boundary between prof and the CUDA driver and CUPTI's PM sampling API, as GPU metrics see it:
// a device list, PM sampling started on a device for a list of CUPTI metrics, decoded samples, and
// the clock the samples' timestamps are read in. cupti_pm_sampling.h implements it with the real
// libraries (loaded with dlopen: prof links neither); tests implement it with recorded results.
//
// Threads: Load() and Devices() on the launcher's thread; a started device is then used by one
// thread at a time (the prof-gpumetrics thread), and ReadClocks() from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "injection/protocol/cpu_counter.h"
#include "injection/protocol/cuda_records.h"

namespace prof::collector {

// A CUDA device as the launcher's driver sees it.
struct GpuDevice {
  uint32_t id = 0;   // CUDA device ordinal: TARGET_INFO_GPU.id, the low byte of typeId
  std::string name;  // "NVIDIA H200"
  std::string chip;  // CUPTI's chip name: "GH100"
  // What TARGET_INFO_GPU says of it (collector/cuda_target_info.h), from the driver's attributes.
  protocol::CudaDeviceRecord description{};
};

// One PM sample: the counters' values over [start, end], in the clock of ReadClocks()'s ticks.
struct PmSample {
  uint64_t start_timestamp = 0;
  uint64_t end_timestamp = 0;
  std::vector<double> values;  // one per collected metric, in the order PmStart::collected lists
};

// Why PM sampling could not start on a device; each kind has its own line for the user.
enum class PmFailure {
  kNone,
  kNoPermission,  // NVreg_RestrictProfilingToAdminUsers=1 and prof is not root
  kBusy,          // another profiler (nsys, ncu, DCGM) holds the device's counters
  kUnsupported,   // the chip, a virtual GPU, MIG, confidential computing, ...
  kFailed,        // anything else; `detail` says what
};

class PmSamplingDevice {
 public:
  virtual ~PmSamplingDevice() = default;
  // Appends the samples the hardware completed since the last call; *overflowed: the hardware
  // buffer filled up and dropped samples since then.
  virtual Status Decode(std::vector<PmSample>* samples, bool* overflowed) = 0;
  // Stops the sampling; Decode() then returns what was left.
  virtual Status Stop() = 0;
};

struct PmStart {
  std::unique_ptr<PmSamplingDevice> device;  // null when sampling did not start
  PmFailure failure = PmFailure::kNone;
  std::string detail;             // the failing call and CUPTI's words, for kFailed and notes
  std::vector<size_t> collected;  // indices into the metrics asked for that the chip has
};

class PmSamplingApi {
 public:
  virtual ~PmSamplingApi() = default;
  // Loads the driver and CUPTI; fails with a sentence ("this machine has no CUDA driver ...").
  virtual Status Load() = 0;
  virtual StatusOr<std::vector<GpuDevice>> Devices() = 0;
  // Starts sampling `metrics` (CUPTI metric names) on `device` every `interval_ns`.
  virtual PmStart Start(const GpuDevice& device, const std::vector<std::string>& metrics,
                        uint64_t interval_ns) = 0;
  // The clock PmSample timestamps are in (`ticks`) and CLOCK_MONOTONIC (`ns`), read together: the
  // pairs collector/counter_clock.h maps sample times with.
  virtual protocol::CounterSample ReadClocks() = 0;
};

}  // namespace prof::collector
