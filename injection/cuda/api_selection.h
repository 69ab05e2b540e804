// Which runtime and driver API calls prof records: all of them except trivial, high-frequency
// queries that nsys does not record either (docs/cuda.md lists both sets).
#pragma once

#include <string_view>

#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {

// `callback_name` is CUPTI's name of the function (e.g. "cudaGetDevice_v3020", "cuCtxGetCurrent").
bool IsRecordedRuntimeApi(std::string_view callback_name);
bool IsRecordedDriverApi(std::string_view callback_name);
// A runtime function that is not recorded but whose callback stays on, so that the driver calls it
// makes count as nested (api_selection.cpp says which and why).
bool TracksNestingOnly(std::string_view callback_name);

// Whether the function launches GPU work (kernels, graphs, copies, memsets) or can block the
// calling thread (synchronizations, frees): the calls --python-backtrace=cuda gives a Python stack.
bool LaunchesOrBlocks(std::string_view callback_name);

// Whether the function launches one kernel (cudaLaunchKernel, cuLaunchKernelEx, ...; graph
// launches and host functions do not) or begins or ends a stream capture.
protocol::CudaLaunchRole LaunchRoleOf(std::string_view callback_name);

// The function's name without CUPTI's version suffix: "cudaMemcpyAsync_v3020" → "cudaMemcpyAsync".
std::string_view BaseApiName(std::string_view callback_name);

}  // namespace prof::injection::cuda
