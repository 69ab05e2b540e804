// Entry point of libprof_cuda.so. The CUDA driver loads the library named by CUDA_INJECTION64_PATH
// and calls InitializeInjection inside the program's first cuInit (PyTorch: its first GPU use). From
// there prof loads libcupti, puts CUPTI on the stream's clock, enables the GPU activity kinds and the
// API callbacks, and starts the flushing that delivers GPU records however the program ends. Whatever fails is reported once as a
// CudaInitStatusRecord (the launcher prints it) and the program runs on untraced by CUDA.
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "injection/core/event_stream.h"
#include "injection/cuda/activity_buffers.h"
#include "injection/cuda/activity_flusher.h"
#include "injection/cuda/activity_selection.h"
#include "injection/cuda/api_callbacks.h"
#include "injection/cuda/cupti_library.h"
#include "injection/cuda/cupti_versions.h"
#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {
namespace {

CuptiFunctions g_cupti;  // never freed: CUPTI may call back until the process ends

void SendStatus(protocol::CudaInitStatus status, uint32_t version, const char* text) {
  protocol::CudaInitStatusRecord record{};
  record.header.kind = protocol::RecordKind::kCudaInitStatus;
  record.header.timestamp_ns = MonotonicNowNs();
  record.status = status;
  record.cupti_version = version;
  const size_t length = strnlen(text, protocol::kMaxTextLength);
  record.text_length = static_cast<uint32_t>(length);
  EmitRecordWithText(&record.header, sizeof(record), text, length);
}

uint64_t CUPTIAPI StreamClock() { return MonotonicNowNs(); }

void InForkChild() { StopRecordingApiCalls(); }

// The GPU activity kinds prof records (activity_selection.h); with --cuda-graph-trace=node graphs
// are traced node by node (their kernels, copies and memsets appear with a graphNodeId) instead of
// one GRAPH_TRACE row. MEMORY2 (allocations and frees) only with --cuda-memory-usage=true: it costs
// a record per allocation call, which allocation-heavy programs without a caching allocator notice.
CUptiResult EnableActivityKinds() {
  const bool graph_level = Settings().cuda_graph_trace == protocol::CudaGraphTrace::kGraph;
  for (CUpti_ActivityKind kind : kDefaultActivityKinds) {
    if (CUptiResult result = g_cupti.cuptiActivityEnable(kind); result != CUPTI_SUCCESS) {
      return result;
    }
  }
  if (Settings().cuda_memory_usage) {
    if (CUptiResult result = g_cupti.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2);
        result != CUPTI_SUCCESS) {
      return result;
    }
  }
  return graph_level ? g_cupti.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE) : CUPTI_SUCCESS;
}

// Reports a failed CUPTI step; `subscriber_taken` distinguishes "another profiler owns CUPTI".
// Also stops recording API calls: a start that failed half way records nothing.
void ReportFailure(const char* step, CUptiResult result, uint32_t version) {
  StopRecordingApiCalls();
  const char* error = nullptr;
  if (g_cupti.cuptiGetResultString(result, &error) != CUPTI_SUCCESS || error == nullptr) {
    error = "unknown error";
  }
  char text[512];
  std::snprintf(text, sizeof(text), "%s failed: %s", step, error);
  const auto status = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? protocol::CudaInitStatus::kSubscriberTaken
                          : protocol::CudaInitStatus::kCuptiFailed;
  SendStatus(status, version, text);
}

void StartTracing() {
  char loaded[1024] = {};
  if (!LoadCupti(&g_cupti, loaded, sizeof(loaded))) {
    SendStatus(protocol::CudaInitStatus::kCuptiNotFound, 0, loaded);
    return;
  }
  uint32_t version = 0;
  g_cupti.cuptiGetVersion(&version);
  if (CuptiMajor(version) != CuptiMajor(kBuiltCuptiVersion)) {
    char text[1200];
    std::snprintf(text, sizeof(text), "%s has CUPTI API version %u; this prof reads version %u",
                  loaded, version, kBuiltCuptiVersion);
    SendStatus(protocol::CudaInitStatus::kCuptiTooOld, version, text);
    return;
  }
  // Before any callback can run: a fork child must never record or call CUPTI.
  pthread_atfork(nullptr, nullptr, InForkChild);
  // The subscriber first: when another profiler owns CUPTI, nothing else may be changed.
  CUptiResult result = StartApiCallbacks(&g_cupti);
  if (result != CUPTI_SUCCESS)
    return ReportFailure("cuptiSubscribe/cuptiEnableCallback", result, version);
  if ((result = g_cupti.cuptiActivityRegisterTimestampCallback(StreamClock)) != CUPTI_SUCCESS) {
    return ReportFailure("cuptiActivityRegisterTimestampCallback", result, version);
  }
  if ((result = RegisterActivityBuffers(&g_cupti)) != CUPTI_SUCCESS) {
    return ReportFailure("cuptiActivityRegisterCallbacks", result, version);
  }
  if ((result = EnableActivityKinds()) != CUPTI_SUCCESS) {
    return ReportFailure("cuptiActivityEnable", result, version);
  }
  g_cupti.cuptiActivityFlushPeriod(kActivityFlushPeriodMs);
  StartActivityFlusher(&g_cupti);
  SendStatus(protocol::CudaInitStatus::kTracing, version, loaded);
}

}  // namespace
}  // namespace prof::injection::cuda

// Called by the CUDA driver, once per process, inside the first cuInit. Returns 1 (success) even when
// prof does not trace: a failing injection must never make the program's CUDA fail.
extern "C" PROF_EXPORT int InitializeInjection(void) {
  using namespace prof::injection;
  static std::atomic<bool> started{false};
  if (!Settings().traces(prof::protocol::kTraceCuda) || !StreamEnabled() ||
      started.exchange(true)) {
    return 1;
  }
  cuda::StartTracing();
  return 1;
}
