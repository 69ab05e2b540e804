// CUDA runtime and driver API calls, recorded from CUPTI callbacks with prof's own timestamps.
//
// Why callbacks: CUPTI's RUNTIME/DRIVER *activity* records cost about 0.5 us per API call on the H200
// (measured, docs/cuda.md); a callback that reads the clock twice and appends 40 bytes to the
// thread's ring costs a fraction of that, and callbacks are enabled only for the recorded calls, so
// the high-frequency trivial ones (cudaGetDevice, cudaGetLastError, ...) cost nothing at all.
//
// What is recorded (the same calls nsys records): every runtime API call and every driver API call
// made outside a runtime call, except the trivial queries listed in api_selection.cpp. A call's
// CudaApiNameRecord is sent by each thread before that thread's first call of that function.
// Callbacks run on the application's threads and must not allocate, lock or call CUPTI beyond
// cuptiGetGraphExecId and cuptiGetGraphId; the exception are the few event and sync calls
// (sync_records.h), which take a short lock and ask CUPTI for stream and device ids.
#pragma once

#include <cupti.h>

#include "injection/cuda/cupti_library.h"

namespace prof::injection::cuda {

// Subscribes to CUPTI's callbacks and enables them for the recorded API calls and the graph events
// (graph_events.h: CUPTI allows one subscriber per process, so it serves both). A CUptiResult
// other than CUPTI_SUCCESS means no API call is recorded (and GPU records lack their API calls).
CUptiResult StartApiCallbacks(const CuptiFunctions* cupti);

// The callbacks stop recording: in a fork child (which must never reach CUPTI), and when tracing
// failed to start.
void StopRecordingApiCalls();

}  // namespace prof::injection::cuda
