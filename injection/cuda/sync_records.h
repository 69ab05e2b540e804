// nsys's SYNCHRONIZATION and CUDA_EVENT rows, written from the API callbacks prof already receives
// instead of CUPTI's SYNCHRONIZATION and CUDA_EVENT activity kinds. On the H200 those two kinds
// cost as much as all the rest of CUDA tracing but kernels on a PyTorch training loop
// (docs/performance.md); a callback that already runs costs a few clock reads and one record.
//
// One outermost API call gives at most one row: the innermost sync or event call inside it (the
// driver's cuStreamSynchronize inside cudaStreamSynchronize) supplies the handles and the wait's
// start and end, the outermost call its correlation id. Rows follow CUPTI's and nsys's rules:
// event query and synchronize are "event sync" rows, stream query and synchronize "stream sync",
// cudaStreamWaitEvent "stream wait event", cudaDeviceSynchronize "context sync"; event ids and sync
// ids as event_registry.h numbers them.
//
// Runs on the application's threads inside CUPTI callbacks; calls CUPTI only for stream and device
// ids (cuptiGetStreamIdEx, cuptiGetDeviceId).
#pragma once

#include <cupti.h>

#include <cstdint>

#include "injection/cuda/cupti_library.h"

namespace prof::injection::cuda {

void StartSyncRecords(const CuptiFunctions* cupti);

// At the exit of every enabled call with a sync role (sync_call_decoding.h), at any depth, in the
// order CUPTI reports the exits; `entry_ns` is the call's own entry time.
void OnSyncCallExit(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                    const CUpti_CallbackData& data, bool succeeded, uint64_t entry_ns,
                    uint64_t exit_ns);

// At the exit of the outermost recorded call: sends the row its sync or event call left, under the
// outermost call's correlation id, and gets ready for the thread's next call.
void SendPendingSyncRecord(uint32_t correlation_id);

}  // namespace prof::injection::cuda
