// The CUDA driver functions GPU metrics need in the launcher, loaded with dlopen: prof itself links
// no CUDA library, so it runs on machines without a driver, where GPU metrics say so and the run
// goes on. Built where the CUDA toolkit's headers are.
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

#include "collector/gpu_metrics/pm_sampling_api.h"
#include "common/status.h"

namespace prof::collector {

struct CudaDriver {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDeviceGetCount) device_count = nullptr;
  decltype(&::cuDeviceGet) device = nullptr;
  decltype(&::cuDeviceGetName) device_name = nullptr;
  decltype(&::cuDeviceGetAttribute) attribute = nullptr;
  decltype(&::cuDeviceTotalMem_v2) total_memory = nullptr;
  decltype(&::cuDeviceGetUuid_v2) uuid = nullptr;
};

// Loads libcuda.so.1 (never unloaded) and initializes the driver.
Status LoadCudaDriver(CudaDriver* driver);

// The devices the driver shows this process (CUDA_VISIBLE_DEVICES applies, as in the program),
// with their TARGET_INFO_GPU description; `chip` is left empty.
StatusOr<std::vector<GpuDevice>> ListCudaDevices(const CudaDriver& driver);

}  // namespace prof::collector
