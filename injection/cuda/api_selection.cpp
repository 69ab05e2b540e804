#include "injection/cuda/api_selection.h"

#include <algorithm>
#include <iterator>

namespace prof::injection::cuda {
namespace {

// Queries of state the runtime caches (called around every PyTorch op, never slow) and set-up calls
// nsys does not record either (compared on the H200: tests/gpu/run.sh lists API names per side).
constexpr std::string_view kSkippedRuntimeApis[] = {
    "cudaDeviceGetAttribute",
    "cudaDeviceGetStreamPriorityRange",
    "cudaDriverGetVersion",
    "cudaFuncGetAttributes",
    "cudaFuncSetAttribute",
    "cudaGetSymbolAddress",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaGetDevice",
    "cudaGetDeviceCount",
    "cudaGetDeviceFlags",
    "cudaGetErrorName",
    "cudaGetErrorString",
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaPointerGetAttributes",
    "cudaRuntimeGetVersion",
    "cudaStreamGetCaptureInfo",
    "cudaStreamGetDevice",
    "cudaStreamGetFlags",
    "cudaStreamGetId",
    "cudaStreamGetPriority",
    "cudaThreadExchangeStreamCaptureMode",
    // Polled in loops: nsys writes its SYNCHRONIZATION row but not the call (H200, cuda_streams.cu);
    // its callback stays enabled for the row (sync_records.h).
    "cudaStreamQuery",
};

// Skipped runtime calls that can load a module (lazy loading) or resolve a kernel: not recorded,
// but their callbacks stay on, so that the driver calls they make (cuLibraryLoadData,
// cuKernelGetFunction) count as nested in them, as nsys counts them, not as outermost calls. The
// hot queries above have no callback at all: they make no such driver call.
constexpr std::string_view kNestingOnlyRuntimeApis[] = {
    "cudaFuncGetAttributes",
    "cudaFuncSetAttribute",
    "cudaGetSymbolAddress",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
};

// The driver's equivalents, the context-stack bookkeeping the runtime does on every call, and the
// driver calls of skipped runtime calls (those become outermost calls when their caller is skipped).
// cuKernelGetFunction is recorded: nsys records it where a library calls it directly (PyTorch 2.11
// on the H100), and where the runtime calls it, it is nested.
constexpr std::string_view kSkippedDriverApis[] = {
    "cuCtxGetApiVersion",
    "cuCtxGetCurrent",
    "cuCtxGetLimit",
    "cuDeviceTotalMem",
    "cuDevicePrimaryCtxRetain",
    "cuKernelSetAttribute",
    "cuLibraryGetGlobal",
    "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cuCtxGetDevice",
    "cuCtxGetFlags",
    "cuCtxGetId",
    "cuCtxGetStreamPriorityRange",
    "cuCtxPopCurrent",
    "cuCtxPushCurrent",
    "cuCtxSetCurrent",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDeviceGetName",
    "cuDeviceGetUuid",
    "cuDevicePrimaryCtxGetState",
    "cuDriverGetVersion",
    "cuFuncGetAttribute",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuKernelGetAttribute",
    "cuPointerGetAttribute",
    "cuPointerGetAttributes",
    "cuStreamGetCaptureInfo",
    "cuStreamGetCtx",
    "cuStreamGetFlags",
    "cuStreamGetId",
    "cuStreamGetPriority",
    "cuThreadExchangeStreamCaptureMode",
    "cuStreamQuery",
};

// CUPTI's names may carry a per-thread-stream suffix too ("_ptsz", "_ptds"): strip it like the
// version, so that skipping a function skips all of its variants.
std::string_view StripSuffix(std::string_view name, std::string_view prefix_of_digits) {
  const size_t at = name.rfind(prefix_of_digits);
  if (at == std::string_view::npos || at == 0) return name;
  const std::string_view rest = name.substr(at + prefix_of_digits.size());
  const bool digits =
      std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, at) : name;
}

template <size_t N>
bool IsListed(const std::string_view (&list)[N], std::string_view callback_name) {
  std::string_view base = BaseApiName(callback_name);
  for (std::string_view suffix : {"_ptsz", "_ptds"}) base = StripSuffix(base, suffix);
  return std::find(std::begin(list), std::end(list), base) != std::end(list);
}

constexpr std::string_view kKernelLaunches[] = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel", "cudaLaunch",
    "cuLaunchKernel",   "cuLaunchKernelEx",    "cuLaunchCooperativeKernel",   "cuLaunch",
    "cuLaunchGrid",     "cuLaunchGridAsync"};
constexpr std::string_view kCaptureBegins[] = {
    "cudaStreamBeginCapture", "cudaStreamBeginCaptureToGraph", "cuStreamBeginCapture",
    "cuStreamBeginCaptureToGraph"};
constexpr std::string_view kCaptureEnds[] = {"cudaStreamEndCapture", "cuStreamEndCapture"};

}  // namespace

protocol::CudaLaunchRole LaunchRoleOf(std::string_view callback_name) {
  if (IsListed(kKernelLaunches, callback_name)) return protocol::CudaLaunchRole::kLaunchesKernel;
  if (IsListed(kCaptureBegins, callback_name))
    return protocol::CudaLaunchRole::kBeginsStreamCapture;
  if (IsListed(kCaptureEnds, callback_name)) return protocol::CudaLaunchRole::kEndsStreamCapture;
  return protocol::CudaLaunchRole::kNone;
}

std::string_view BaseApiName(std::string_view callback_name) {
  // "_v2" (driver) or "_v3020" (runtime): '_v' followed by digits only.
  return StripSuffix(callback_name, "_v");
}

bool IsRecordedRuntimeApi(std::string_view callback_name) {
  return !callback_name.empty() && !IsListed(kSkippedRuntimeApis, callback_name);
}

bool TracksNestingOnly(std::string_view callback_name) {
  return !callback_name.empty() && IsListed(kNestingOnlyRuntimeApis, callback_name);
}

bool IsRecordedDriverApi(std::string_view callback_name) {
  return !callback_name.empty() && !IsListed(kSkippedDriverApis, callback_name);
}

bool LaunchesOrBlocks(std::string_view callback_name) {
  // Launch covers kernels, cooperative and graph launches; Free covers cudaFree's implicit sync.
  for (std::string_view word : {"Launch", "Memcpy", "Memset", "Synchronize", "Free"}) {
    if (callback_name.find(word) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace prof::injection::cuda
