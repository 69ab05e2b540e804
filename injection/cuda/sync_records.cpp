#include "injection/cuda/sync_records.h"

#include "injection/core/event_stream.h"
#include "injection/cuda/event_registry.h"
#include "injection/cuda/sync_call_decoding.h"
#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {
namespace {

// CUpti_ActivitySynchronizationType values (the collector maps them onto nsys's syncType).
constexpr uint32_t kEventSynchronize = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
constexpr uint32_t kStreamWaitEvent = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT;
constexpr uint32_t kStreamSynchronize = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
constexpr uint32_t kContextSynchronize = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
constexpr uint32_t kNoStreamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;

const CuptiFunctions* g_cupti = nullptr;
// Never destroyed: CUDA calls may arrive from other threads' exit handlers until the process ends.
EventRegistry& Events() {
  static auto* registry = new EventRegistry();
  return *registry;
}

// What the thread's current outermost call left to send.
enum class Pending : uint8_t { kNothing, kSync, kEvent, kHandled };
thread_local Pending t_pending = Pending::kNothing;
thread_local protocol::CudaSyncRecord t_sync{};
thread_local protocol::CudaEventRecord t_event{};
thread_local CUevent t_created_in_call = nullptr;
thread_local CUevent t_destroyed_in_call = nullptr;
// The device of the last context this thread asked about: calls rarely change context. Keyed by
// the context's unique id, since a destroyed context's address can come back on another device.
thread_local uint32_t t_device_context_uid = 0;
thread_local uint32_t t_device_id = 0;

uint32_t DeviceOf(const CUpti_CallbackData& data) {
  if (data.contextUid != t_device_context_uid || data.contextUid == 0) {
    uint32_t device = 0;
    const bool known = data.context != nullptr &&
                       g_cupti->cuptiGetDeviceId(data.context, &device) == CUPTI_SUCCESS;
    t_device_context_uid = data.contextUid;
    t_device_id = known ? device : 0;
  }
  return t_device_id;
}

uint32_t StreamIdOf(CUcontext context, const SyncCall& call) {
  uint32_t id = kNoStreamId;
  if (g_cupti->cuptiGetStreamIdEx(context, call.stream, call.per_thread_stream ? 1 : 0, &id) !=
      CUPTI_SUCCESS) {
    return kNoStreamId;
  }
  return id;
}

void KeepSync(const CUpti_CallbackData& data, uint32_t sync_type, uint32_t stream_id,
              EventRegistry::EventIds event, uint64_t entry_ns, uint64_t exit_ns) {
  t_sync = protocol::CudaSyncRecord{};
  t_sync.header.kind = protocol::RecordKind::kCudaSync;
  t_sync.header.timestamp_ns = entry_ns;
  t_sync.end_ns = exit_ns;
  t_sync.context_id = data.contextUid;
  t_sync.device_id = DeviceOf(data);
  t_sync.stream_id = stream_id;
  t_sync.sync_type = sync_type;
  t_sync.event_id = event.event_id;
  t_sync.event_sync_id = event.event_sync_id;
  t_pending = Pending::kSync;
}

}  // namespace

void StartSyncRecords(const CuptiFunctions* cupti) { g_cupti = cupti; }

void OnSyncCallExit(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                    const CUpti_CallbackData& data, bool succeeded, uint64_t entry_ns,
                    uint64_t exit_ns) {
  const SyncCall call = DecodeSyncCall(domain, cbid, data.functionParams);
  // Creations count wherever they happen (the runtime may create events of its own inside other
  // calls); the runtime's exit after its driver call names the same event and counts once.
  if (call.role == SyncRole::kEventCreate) {
    if (succeeded && call.event != nullptr && call.event != t_created_in_call) {
      Events().Created(call.event);
      t_created_in_call = call.event;
    }
    return;
  }
  // Likewise a destruction: counted twice, it could forget an event another thread created at
  // the freed address in between.
  if (call.role == SyncRole::kEventDestroy) {
    if (succeeded && call.event != t_destroyed_in_call) {
      Events().Destroyed(call.event);
      t_destroyed_in_call = call.event;
    }
    return;
  }
  if (t_pending != Pending::kNothing) return;  // an inner call of this outermost call decided
  const EventRegistry::EventIds no_event{};
  switch (call.role) {
    case SyncRole::kEventRecord: {
      if (!succeeded) {  // nothing was recorded, and the runtime's exit must not count it either
        t_pending = Pending::kHandled;
        return;
      }
      const EventRegistry::EventIds ids = Events().Recorded(call.event);
      t_event = protocol::CudaEventRecord{};
      t_event.header.kind = protocol::RecordKind::kCudaEvent;
      t_event.header.timestamp_ns = exit_ns;
      t_event.device_id = DeviceOf(data);
      t_event.context_id = data.contextUid;
      t_event.stream_id = StreamIdOf(data.context, call);
      t_event.event_id = ids.event_id;
      t_event.event_sync_id = ids.event_sync_id;
      t_pending = Pending::kEvent;
      return;
    }
    case SyncRole::kStreamWaitEvent:
      return KeepSync(data, kStreamWaitEvent, StreamIdOf(data.context, call),
                      Events().Latest(call.event), entry_ns, exit_ns);
    case SyncRole::kStreamSynchronize:
    case SyncRole::kStreamQuery:
      return KeepSync(data, kStreamSynchronize, StreamIdOf(data.context, call), no_event, entry_ns,
                      exit_ns);
    case SyncRole::kEventSynchronize:
    case SyncRole::kEventQuery:
      return KeepSync(data, kEventSynchronize, kNoStreamId, Events().Latest(call.event), entry_ns,
                      exit_ns);
    case SyncRole::kContextSynchronize:
      return KeepSync(data, kContextSynchronize, kNoStreamId, no_event, entry_ns, exit_ns);
    case SyncRole::kEventCreate:
    case SyncRole::kEventDestroy:
    case SyncRole::kNone:
      return;
  }
}

void SendPendingSyncRecord(uint32_t correlation_id) {
  const Pending pending = t_pending;
  t_pending = Pending::kNothing;
  t_created_in_call = nullptr;
  t_destroyed_in_call = nullptr;
  if (pending == Pending::kSync) {
    t_sync.correlation_id = correlation_id;
    EmitRecord(&t_sync.header, sizeof(t_sync));
  } else if (pending == Pending::kEvent) {
    t_event.correlation_id = correlation_id;
    EmitRecord(&t_event.header, sizeof(t_event));
  }
}

}  // namespace prof::injection::cuda
