// CUPTI's activity buffers: where CUPTI writes GPU activity records until prof converts them.
//
// - Buffers come from a pool and go back to it once converted, so steady state allocates nothing;
//   the pool grows to at most kMaxBuffers (then CUPTI drops records and counts them, and prof sends
//   that count as a CudaDroppedRecordsRecord).
// - OnBufferRequested may run on any application thread (CUPTI asks for a buffer when one fills up),
//   so it only takes a buffer from the pool under a short lock.
// - OnBufferCompleted runs on CUPTI's worker thread, on prof's flushing thread (activity_flusher.h)
//   or on the thread that exits. Conversion is serialised by a lock and emits patiently
//   (ScopedPatientEmit): waiting there costs the program nothing, dropping would lose GPU activity.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>

#include "injection/cuda/cupti_library.h"

namespace prof::injection::cuda {

inline constexpr size_t kActivityBufferBytes = 4 << 20;
inline constexpr size_t kMaxBuffers = 32;

// Registers the buffer callbacks with CUPTI. `cupti` must outlive the process (it does: never freed).
CUptiResult RegisterActivityBuffers(const CuptiFunctions* cupti);

}  // namespace prof::injection::cuda
