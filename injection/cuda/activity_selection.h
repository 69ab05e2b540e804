// What prof asks of CUPTI's activity API by default: the record kinds and how often completed
// buffers are delivered. One list for libprof_cuda.so and for bench/cuda_overhead/cupti_floor.cpp,
// which measures what asking CUPTI for exactly these costs.
//
// SYNCHRONIZATION and CUDA_EVENT rows come from the API callbacks instead (sync_records.h): those
// two kinds cost more than all the others together but kernels. MEMORY2 (allocations and frees) and
// GRAPH_TRACE depend on options (cuda_injection.cpp).
#pragma once

#include <cupti.h>

#include <cstdint>

namespace prof::injection::cuda {

inline constexpr CUpti_ActivityKind kDefaultActivityKinds[] = {
    CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT,
    CUPTI_ACTIVITY_KIND_STREAM, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET};

// How often full buffers are delivered (CUPTI's periodic flush) and every buffer whose records are
// complete (prof's flushing thread, activity_flusher.h): a program killed by SIGKILL loses at most
// this much GPU activity.
inline constexpr uint32_t kActivityFlushPeriodMs = 200;

}  // namespace prof::injection::cuda
