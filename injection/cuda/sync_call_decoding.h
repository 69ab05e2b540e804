// Which CUDA API calls create, destroy, record or wait for events and streams, and the handles they
// name, read from a CUPTI callback's parameters. prof writes nsys's SYNCHRONIZATION and CUDA_EVENT
// rows from these calls (sync_records.h) instead of enabling CUPTI's activity kinds for them.
//
// Runtime and driver functions are both decoded: the runtime makes the driver's call inside its own,
// and the innermost decoded call of an outermost API call is the one that counts (its entry and exit
// are closest to the wait itself), but a runtime call that reaches the driver some other way must
// still count.
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <cstdint>

namespace prof::injection::cuda {

enum class SyncRole : uint8_t {
  kNone,
  kEventCreate,
  kEventDestroy,
  kEventRecord,
  kStreamWaitEvent,
  kStreamSynchronize,
  kStreamQuery,
  kEventSynchronize,
  kEventQuery,
  kContextSynchronize,
};

struct SyncCall {
  SyncRole role = SyncRole::kNone;
  // The _ptsz/_ptds variants: a NULL stream means the calling thread's default stream.
  bool per_thread_stream = false;
  CUstream stream = nullptr;
  // For kEventCreate the created event (read at the call's exit), else the event the call names.
  CUevent event = nullptr;
};

// The role of (domain, cbid): kNone for every function that is not a sync or event call. Cheap
// enough for every callback.
SyncRole SyncRoleOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// The call's role and handles. `params` is CUpti_CallbackData::functionParams at the call's exit;
// nullptr gives handles of nullptr.
SyncCall DecodeSyncCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params);

}  // namespace prof::injection::cuda
