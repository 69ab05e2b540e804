#include "injection/cuda/api_callbacks.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <atomic>
#include <cstring>

#include "injection/core/event_stream.h"
#include "injection/cuda/api_selection.h"
#include "injection/cuda/graph_events.h"
#include "injection/cuda/profiler_api_capture.h"
#include "injection/cuda/python_stacks.h"
#include "injection/cuda/sync_call_decoding.h"
#include "injection/cuda/sync_records.h"
#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {
namespace {

using protocol::CudaApiDomain;

constexpr size_t kMaxCbid = 1024;
static_assert(CUPTI_RUNTIME_TRACE_CBID_SIZE <= kMaxCbid &&
              CUPTI_DRIVER_TRACE_CBID_SIZE <= kMaxCbid);
constexpr size_t kWords = kMaxCbid / 64;

const CuptiFunctions* g_cupti = nullptr;
std::atomic<bool> g_recording{false};
// CUPTI's callback names ("cudaLaunchKernel_v7000": the names nsys stores, with the version suffix
// that CUpti_CallbackData::functionName lacks) of the recorded functions, filled before any callback.
// A function enabled only for its sync rows (cudaStreamQuery) has none: its calls are not written.
const char* g_names[2][kMaxCbid] = {};
// The enabled functions whose calls carry the caller's Python stack (--python-backtrace=cuda):
// those that launch work or can block the thread.
uint64_t g_with_stack[2][kWords] = {};

// Per thread: depth of recorded calls in progress (only the outermost is sent), the entry time of
// the outermost one and of the innermost sync or event call (sync_records.h), and which functions'
// names this thread has already sent.
thread_local uint32_t t_depth = 0;
thread_local uint64_t t_entry_ns = 0;
thread_local uint64_t t_sync_entry_ns = 0;
thread_local uint64_t t_named[2][kWords] = {};

size_t DomainIndex(CudaApiDomain domain) { return domain == CudaApiDomain::kRuntime ? 0 : 1; }

void SendNameOnce(CudaApiDomain domain, CUpti_CallbackId cbid) {
  const char* name = g_names[DomainIndex(domain)][cbid];
  uint64_t& word = t_named[DomainIndex(domain)][cbid / 64];
  const uint64_t bit = uint64_t{1} << (cbid % 64);
  if ((word & bit) != 0) return;
  word |= bit;
  protocol::CudaApiNameRecord record{};
  record.header.kind = protocol::RecordKind::kCudaApiName;
  record.header.timestamp_ns = t_entry_ns;
  record.cbid = cbid;
  record.domain = domain;
  if (name != nullptr) record.launch_role = LaunchRoleOf(name);
  const size_t length = name != nullptr ? strnlen(name, protocol::kMaxTextLength) : 0;
  record.text_length = static_cast<uint32_t>(length);
  EmitRecordWithText(&record.header, sizeof(record), name, length);
}

int32_t ReturnValue(CudaApiDomain domain, const CUpti_CallbackData& data) {
  if (data.functionReturnValue == nullptr) return 0;
  if (domain == CudaApiDomain::kRuntime) {
    return static_cast<int32_t>(*static_cast<const cudaError_t*>(data.functionReturnValue));
  }
  return static_cast<int32_t>(*static_cast<const CUresult*>(data.functionReturnValue));
}

// The executable graph a graph-launch call ran, or nullptr for other calls.
CUgraphExec LaunchedGraph(CudaApiDomain domain, CUpti_CallbackId cbid, const void* params) {
  if (params == nullptr) return nullptr;
  if (domain == CudaApiDomain::kRuntime) {
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000) {
      // Both variants' parameter structs start with the graphExec.
      return static_cast<const cudaGraphLaunch_v10000_params*>(params)->graphExec;
    }
    return nullptr;
  }
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
      cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
    return static_cast<const cuGraphLaunch_params*>(params)->hGraph;
  }
  return nullptr;
}

void SendGraphLaunch(CUgraphExec graph, uint32_t correlation_id, uint64_t now) {
  uint32_t exec_id = 0;
  if (g_cupti->cuptiGetGraphExecId(graph, &exec_id) != CUPTI_SUCCESS) return;
  protocol::CudaGraphLaunchRecord record{};
  record.header.kind = protocol::RecordKind::kCudaGraphLaunch;
  record.header.timestamp_ns = now;
  record.correlation_id = correlation_id;
  record.graph_exec_id = exec_id;
  EmitRecord(&record.header, sizeof(record));
}

bool Flagged(const uint64_t (&bits)[2][kWords], CudaApiDomain domain, CUpti_CallbackId cbid) {
  return (bits[DomainIndex(domain)][cbid / 64] >> (cbid % 64)) & 1;
}

void OnExit(CudaApiDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  const uint64_t exit_ns = MonotonicNowNs();
  SendNameOnce(domain, cbid);
  protocol::CudaApiCallWithStackRecord record{};
  protocol::CudaApiCallRecord& call = record.call;
  call.header.kind = protocol::RecordKind::kCudaApiCall;
  call.header.timestamp_ns = t_entry_ns;
  call.end_ns = exit_ns;
  call.correlation_id = data.correlationId;
  call.cbid = cbid;
  call.return_value = ReturnValue(domain, data);
  call.domain = domain;
  if (Flagged(g_with_stack, domain, cbid)) record.stack_id = CurrentPythonStackId(exit_ns);
  if (record.stack_id != 0) {
    call.header.kind = protocol::RecordKind::kCudaApiCallWithStack;
    EmitRecord(&call.header, sizeof(record));
  } else {
    EmitRecord(&call.header, sizeof(call));
  }
  if (CUgraphExec graph = LaunchedGraph(domain, cbid, data.functionParams)) {
    SendGraphLaunch(graph, data.correlationId, exit_ns);
  }
}

void CUPTIAPI OnCallback(void* /*userdata*/, CUpti_CallbackDomain cupti_domain,
                         CUpti_CallbackId cbid, const void* callback_data) {
  if (!g_recording.load(std::memory_order_relaxed)) return;
  OnProfilerApiCallback(cupti_domain, cbid, callback_data);  // --capture-range=cudaProfilerApi
  if (cupti_domain == CUPTI_CB_DOMAIN_RESOURCE) {
    return OnGraphResource(cbid, *static_cast<const CUpti_ResourceData*>(callback_data));
  }
  if (cupti_domain != CUPTI_CB_DOMAIN_RUNTIME_API && cupti_domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  const auto& data = *static_cast<const CUpti_CallbackData*>(callback_data);
  const bool sync_call = SyncRoleOf(cupti_domain, cbid) != SyncRole::kNone;
  if (data.callbackSite == CUPTI_API_ENTER) {
    if (t_depth++ == 0) {
      t_entry_ns = MonotonicNowNs();
      if (sync_call) t_sync_entry_ns = t_entry_ns;
    } else if (sync_call) {
      t_sync_entry_ns = MonotonicNowNs();
    }
    return;
  }
  if (t_depth == 0) return;  // an exit whose entry we missed
  const auto domain = cupti_domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CudaApiDomain::kRuntime
                                                                  : CudaApiDomain::kDriver;
  if (sync_call) {
    OnSyncCallExit(cupti_domain, cbid, data, ReturnValue(domain, data) == 0, t_sync_entry_ns,
                   MonotonicNowNs());
  }
  if (--t_depth != 0) return;  // a nested call
  if (g_names[DomainIndex(domain)][cbid] != nullptr) OnExit(domain, cbid, data);
  SendPendingSyncRecord(data.correlationId);
}

CUptiResult EnableDomain(CUpti_SubscriberHandle subscriber, CudaApiDomain api_domain,
                         uint32_t cbid_count, bool (*is_recorded)(std::string_view)) {
  const CUpti_CallbackDomain domain = api_domain == CudaApiDomain::kRuntime
                                          ? CUPTI_CB_DOMAIN_RUNTIME_API
                                          : CUPTI_CB_DOMAIN_DRIVER_API;
  for (uint32_t cbid = 1; cbid < cbid_count; ++cbid) {
    const char* name = nullptr;
    const bool named =
        g_cupti->cuptiGetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS && name != nullptr;
    const bool recorded = named && is_recorded(name);
    const bool nests = named && api_domain == CudaApiDomain::kRuntime && TracksNestingOnly(name);
    if (!recorded && !nests && SyncRoleOf(domain, cbid) == SyncRole::kNone) continue;
    if (recorded) g_names[DomainIndex(api_domain)][cbid] = name;
    if (recorded && Settings().python_backtrace && LaunchesOrBlocks(name)) {
      g_with_stack[DomainIndex(api_domain)][cbid / 64] |= uint64_t{1} << (cbid % 64);
    }
    const CUptiResult result = g_cupti->cuptiEnableCallback(1, subscriber, domain, cbid);
    if (result != CUPTI_SUCCESS) return result;
  }
  return CUPTI_SUCCESS;
}

}  // namespace

CUptiResult StartApiCallbacks(const CuptiFunctions* cupti) {
  g_cupti = cupti;
  StartSyncRecords(cupti);
  CUpti_SubscriberHandle subscriber = nullptr;
  CUptiResult result = cupti->cuptiSubscribe(&subscriber, OnCallback, nullptr);
  if (result != CUPTI_SUCCESS) return result;
  g_recording.store(true);
  // The driver's domain before the runtime's: a runtime call entered before its own domain was
  // on has its exit ignored (no entry seen), while its driver calls, seen whole, count as
  // outermost. The other order would pair such a driver call's exit with the runtime's entry.
  result = EnableDomain(subscriber, CudaApiDomain::kDriver, CUPTI_DRIVER_TRACE_CBID_SIZE,
                        IsRecordedDriverApi);
  if (result != CUPTI_SUCCESS) return result;
  if ((result = EnableGraphEvents(cupti, subscriber)) != CUPTI_SUCCESS) return result;
  return EnableDomain(subscriber, CudaApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_SIZE,
                      IsRecordedRuntimeApi);
}

void StopRecordingApiCalls() { g_recording.store(false); }

}  // namespace prof::injection::cuda
