#include "injection/cuda/sync_call_decoding.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <cstddef>

namespace prof::injection::cuda {
namespace {

struct RoleEntry {
  SyncRole role;
  bool per_thread_stream;
};

RoleEntry RuntimeRole(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020:
      return {SyncRole::kEventCreate, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020:
      return {SyncRole::kEventDestroy, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
      return {SyncRole::kEventRecord, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
      return {SyncRole::kEventRecord, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
      return {SyncRole::kStreamWaitEvent, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
      return {SyncRole::kStreamWaitEvent, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
      return {SyncRole::kStreamSynchronize, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
      return {SyncRole::kStreamSynchronize, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
      return {SyncRole::kStreamQuery, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
      return {SyncRole::kStreamQuery, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
      return {SyncRole::kEventSynchronize, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
      return {SyncRole::kEventQuery, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020:
      return {SyncRole::kContextSynchronize, false};
    default:
      return {SyncRole::kNone, false};
  }
}

RoleEntry DriverRole(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuEventCreate:
      return {SyncRole::kEventCreate, false};
    case CUPTI_DRIVER_TRACE_CBID_cuEventDestroy:
    case CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2:
      return {SyncRole::kEventDestroy, false};
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord:
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags:
      return {SyncRole::kEventRecord, false};
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz:
      return {SyncRole::kEventRecord, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent:
      return {SyncRole::kStreamWaitEvent, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz:
      return {SyncRole::kStreamWaitEvent, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
      return {SyncRole::kStreamSynchronize, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
      return {SyncRole::kStreamSynchronize, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery:
      return {SyncRole::kStreamQuery, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz:
      return {SyncRole::kStreamQuery, true};
    case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
      return {SyncRole::kEventSynchronize, false};
    case CUPTI_DRIVER_TRACE_CBID_cuEventQuery:
      return {SyncRole::kEventQuery, false};
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2:
      return {SyncRole::kContextSynchronize, false};
    default:
      return {SyncRole::kNone, false};
  }
}

RoleEntry RoleEntryOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return RuntimeRole(cbid);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return DriverRole(cbid);
  return {SyncRole::kNone, false};
}

// Every runtime and driver parameter struct of one role lays the handles out alike (checked below),
// so one struct per layout reads them all.
struct EventThenStream {
  CUevent event;
  CUstream stream;
};
struct StreamThenEvent {
  CUstream stream;
  CUevent event;
};
#define PROF_SAME_LAYOUT(params, handles, params_event, params_stream)        \
  static_assert(offsetof(params, params_event) == offsetof(handles, event) && \
                offsetof(params, params_stream) == offsetof(handles, stream))
PROF_SAME_LAYOUT(cudaEventRecord_v3020_params, EventThenStream, event, stream);
PROF_SAME_LAYOUT(cudaEventRecord_ptsz_v7000_params, EventThenStream, event, stream);
PROF_SAME_LAYOUT(cudaEventRecordWithFlags_v11010_params, EventThenStream, event, stream);
PROF_SAME_LAYOUT(cudaEventRecordWithFlags_ptsz_v11010_params, EventThenStream, event, stream);
PROF_SAME_LAYOUT(cuEventRecord_params, EventThenStream, hEvent, hStream);
PROF_SAME_LAYOUT(cuEventRecord_ptsz_params, EventThenStream, hEvent, hStream);
PROF_SAME_LAYOUT(cuEventRecordWithFlags_params, EventThenStream, hEvent, hStream);
PROF_SAME_LAYOUT(cuEventRecordWithFlags_ptsz_params, EventThenStream, hEvent, hStream);
PROF_SAME_LAYOUT(cudaStreamWaitEvent_v3020_params, StreamThenEvent, event, stream);
PROF_SAME_LAYOUT(cudaStreamWaitEvent_ptsz_v7000_params, StreamThenEvent, event, stream);
PROF_SAME_LAYOUT(cuStreamWaitEvent_params, StreamThenEvent, hEvent, hStream);
PROF_SAME_LAYOUT(cuStreamWaitEvent_ptsz_params, StreamThenEvent, hEvent, hStream);
#undef PROF_SAME_LAYOUT

}  // namespace

SyncRole SyncRoleOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return RoleEntryOf(domain, cbid).role;
}

SyncCall DecodeSyncCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params) {
  const RoleEntry entry = RoleEntryOf(domain, cbid);
  SyncCall call;
  call.role = entry.role;
  call.per_thread_stream = entry.per_thread_stream;
  if (params == nullptr) return call;
  switch (entry.role) {
    case SyncRole::kEventCreate: {
      // Runtime and driver both take a pointer to the new event first.
      CUevent* created = *static_cast<CUevent* const*>(params);
      call.event = created != nullptr ? *created : nullptr;
      break;
    }
    case SyncRole::kEventDestroy:
    case SyncRole::kEventSynchronize:
    case SyncRole::kEventQuery:
      call.event = *static_cast<const CUevent*>(params);
      break;
    case SyncRole::kEventRecord: {
      const auto& handles = *static_cast<const EventThenStream*>(params);
      call.event = handles.event;
      call.stream = handles.stream;
      break;
    }
    case SyncRole::kStreamWaitEvent: {
      const auto& handles = *static_cast<const StreamThenEvent*>(params);
      call.stream = handles.stream;
      call.event = handles.event;
      break;
    }
    case SyncRole::kStreamSynchronize:
    case SyncRole::kStreamQuery:
      call.stream = *static_cast<const CUstream*>(params);
      break;
    case SyncRole::kContextSynchronize:
    case SyncRole::kNone:
      break;
  }
  return call;
}

}  // namespace prof::injection::cuda
