// PmSamplingApi on the real libraries: the CUDA driver (cuda_driver.h) and CUPTI's PM sampling and
// profiler host APIs, libcupti found as the CUDA injection finds it (injection/cuda/cupti_library.h)
// and loaded with dlopen. Per device: counter availability, a config image for the metrics the chip
// has (each checked alone, so that one the chip lacks leaves the rest), one pass, a hardware buffer
// decoded into a counter-data image and each sample evaluated to the metrics' values.
// Built only where CUPTI's headers are (PROF_HAVE_CUPTI).
#pragma once

#include <memory>

#include "collector/gpu_metrics/pm_sampling_api.h"

namespace prof::collector {

std::unique_ptr<PmSamplingApi> MakeCuptiPmSamplingApi();

}  // namespace prof::collector
