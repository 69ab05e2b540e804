// libcupti.so.13 for machines without a GPU: a CUPTI test double that behaves like CUPTI where
// libprof_cuda depends on it. It names a few functions (kFunctions), calls the subscriber around
// each simulated call (a runtime call's driver calls nested inside it), and writes a kernel activity
// record per launch into buffers taken from prof's buffer callback. Like CUPTI, it hands a buffer
// back only when it is full and someone flushes, or on cuptiActivityFlushAll; its periodic flush
// (cuptiActivityFlushPeriod) delivers nothing, as CUPTI's delivers full buffers only. So whether a
// program's kernel records reach the report depends on prof flushing, exactly as on a GPU.
//
// The program under test drives it through cupti_double_* (cuda_end_program.cpp).
#include <cupti.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

#include "injection/cuda/cupti_versions.h"

namespace {

using prof::injection::cuda::KernelActivity;

// The functions the double knows, by CUPTI's domain, callback id and name.
struct Function {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  const char* name;
};
constexpr Function kFunctions[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
     "cudaLaunchKernel_v7000"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
     "cudaStreamBeginCapture_v10000"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
     "cudaStreamEndCapture_v10000"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
     "cudaFuncGetAttributes_v3020"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, "cuLibraryLoadData"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction,
     "cuKernelGetFunction"},
};
constexpr size_t kFunctionCount = sizeof(kFunctions) / sizeof(kFunctions[0]);
enum FunctionIndex : size_t {
  kLaunchKernel,
  kBeginCapture,
  kEndCapture,
  kFuncGetAttributes,
  kLibraryLoadData,
  kKernelGetFunction
};

struct FilledBuffer {
  uint8_t* data;
  size_t size;
  size_t used;
};

std::mutex g_mutex;
CUpti_CallbackFunc g_subscriber = nullptr;
void* g_subscriber_data = nullptr;
bool g_enabled[kFunctionCount] = {};  // by FunctionIndex
CUpti_BuffersCallbackRequestFunc g_request = nullptr;
CUpti_BuffersCallbackCompleteFunc g_complete = nullptr;
CUpti_TimestampCallbackFunc g_clock = nullptr;
FilledBuffer g_current{};
std::deque<FilledBuffer> g_full;  // full buffers, delivered at the next flush
size_t g_dropped = 0;
uint32_t g_correlation = 0;

int IndexOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  for (size_t i = 0; i < kFunctionCount; ++i) {
    if (kFunctions[i].domain == domain && kFunctions[i].cbid == cbid) return static_cast<int>(i);
  }
  return -1;
}

uint64_t Now() { return g_clock != nullptr ? g_clock() : 0; }

uint32_t NextCorrelation() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return ++g_correlation;
}

// One call as CUPTI reports it: the subscriber at entry and at exit, with its correlation id, and
// `nested` called in between (the driver calls a runtime function makes).
template <typename Nested>
void Call(FunctionIndex function, uint32_t correlation, Nested nested) {
  const Function& f = kFunctions[function];
  const bool enabled = g_subscriber != nullptr && g_enabled[function];
  int result = 0;  // cudaSuccess, CUDA_SUCCESS
  CUpti_CallbackData data{};
  data.functionName = f.name;
  data.correlationId = correlation;
  data.functionReturnValue = &result;
  data.callbackSite = CUPTI_API_ENTER;
  if (enabled) g_subscriber(g_subscriber_data, f.domain, f.cbid, &data);
  nested();
  data.callbackSite = CUPTI_API_EXIT;
  if (enabled) g_subscriber(g_subscriber_data, f.domain, f.cbid, &data);
}

void Call(FunctionIndex function, uint32_t correlation) {
  Call(function, correlation, [] {});
}

// Appends a kernel record, under g_mutex; a record that finds no buffer is dropped and counted.
void AppendKernel(const char* name, uint32_t correlation, uint64_t start, uint64_t end) {
  if (g_current.data != nullptr && g_current.used + sizeof(KernelActivity) > g_current.size) {
    g_full.push_back(g_current);
    g_current = {};
  }
  if (g_current.data == nullptr && g_request != nullptr) {
    size_t max_records = 0;
    g_request(&g_current.data, &g_current.size, &max_records);
    g_current.used = 0;
    if (g_current.data != nullptr && g_current.size < sizeof(KernelActivity)) g_current = {};
  }
  if (g_current.data == nullptr) {
    ++g_dropped;
    return;
  }
  KernelActivity kernel{};
  kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  kernel.start = start;
  kernel.end = end;
  kernel.deviceId = 0;
  kernel.contextId = 1;
  kernel.streamId = 7;
  kernel.correlationId = correlation;
  kernel.gridX = kernel.gridY = kernel.gridZ = 1;
  kernel.blockX = 128;
  kernel.blockY = kernel.blockZ = 1;
  kernel.name = name;  // the program passes string literals: they outlive the buffer
  std::memcpy(g_current.data + g_current.used, &kernel, sizeof(kernel));
  g_current.used += sizeof(kernel);
}

}  // namespace

extern "C" {

// --- The test program's side ---------------------------------------------------------------------

// A cudaLaunchKernel of `name`; `runs` false: its kernel record never comes (lost by the GPU side).
__attribute__((visibility("default"))) void cupti_double_launch(const char* name, int runs) {
  const uint32_t correlation = NextCorrelation();
  const uint64_t start = Now();
  Call(kLaunchKernel, correlation);
  if (runs == 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  AppendKernel(name, correlation, start + 1000, start + 2000);
}

// cudaStreamBeginCapture (begin = 1) or cudaStreamEndCapture (begin = 0).
__attribute__((visibility("default"))) void cupti_double_capture(int begin) {
  Call(begin != 0 ? kBeginCapture : kEndCapture, NextCorrelation());
}

// cudaFuncGetAttributes of a kernel whose module is loaded lazily: the runtime calls
// cuLibraryLoadData and cuKernelGetFunction inside it, under the same correlation id.
__attribute__((visibility("default"))) void cupti_double_func_attributes() {
  const uint32_t correlation = NextCorrelation();
  Call(kFuncGetAttributes, correlation, [correlation] {
    Call(kLibraryLoadData, correlation);
    Call(kKernelGetFunction, correlation);
  });
}

// cuKernelGetFunction called by the program itself (an outermost driver call).
__attribute__((visibility("default"))) void cupti_double_kernel_get_function() {
  Call(kKernelGetFunction, NextCorrelation());
}

// --- CUPTI's side, as libprof_cuda calls it --------------------------------------------------------

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  *version = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult, const char** text) {
  *text = "CUPTI test double error";
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                    void* userdata) {
  static int handle;
  *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&handle);
  g_subscriber = callback;
  g_subscriber_data = userdata;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle,
                                         CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  const int index = IndexOf(domain, cbid);
  if (index >= 0) g_enabled[index] = enable != 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                          const char** name) {
  const int index = IndexOf(domain, cbid);
  if (index < 0) return CUPTI_ERROR_INVALID_PARAMETER;
  *name = kFunctions[index].name;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind) { return CUPTI_SUCCESS; }

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                    CUpti_BuffersCallbackCompleteFunc complete) {
  g_request = request;
  g_complete = complete;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc clock) {
  g_clock = clock;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushPeriod(uint32_t) { return CUPTI_SUCCESS; }

// Every record of the double is complete: a flush of either kind delivers every buffer holding any.
CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t) {
  std::deque<FilledBuffer> delivered;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    delivered.swap(g_full);
    if (g_current.used > 0) delivered.push_back(g_current);
    if (g_current.used > 0) g_current = {};
  }
  for (const FilledBuffer& buffer : delivered) {
    g_complete(nullptr, 0, buffer.data, buffer.size, buffer.used);
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid_size,
                                                CUpti_Activity** record) {
  uint8_t* next =
      *record == nullptr ? buffer : reinterpret_cast<uint8_t*>(*record) + sizeof(KernelActivity);
  if (next + sizeof(KernelActivity) > buffer + valid_size) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(next);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
  std::lock_guard<std::mutex> lock(g_mutex);
  *dropped = g_dropped;
  g_dropped = 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphExecId(CUgraphExec, uint32_t*) {
  return CUPTI_ERROR_INVALID_PARAMETER;
}
CUptiResult CUPTIAPI cuptiGetGraphId(CUgraph, uint32_t*) { return CUPTI_ERROR_INVALID_PARAMETER; }
CUptiResult CUPTIAPI cuptiGetStreamIdEx(CUcontext, CUstream, uint8_t, uint32_t*) {
  return CUPTI_ERROR_INVALID_PARAMETER;
}
CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext, uint32_t*) {
  return CUPTI_ERROR_INVALID_PARAMETER;
}

}  // extern "C"
