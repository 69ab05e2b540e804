// Per-thread, per-domain push/pop nesting: the levels nvtxRangePush and nvtxRangePop return.
//
// NVTX keeps one push/pop stack per thread and domain; the tracer only needs its depth. Each thread
// touches only its own table (thread_local), so no locks. The first 16 domain ids live inline and
// cost no allocation, also on a thread's first push inside a signal handler; a thread that uses a
// larger domain id grows a heap table (malloc), freed when the thread exits.
#pragma once

#include <cstdint>

namespace prof::injection::nvtx {

// Opens a range in `domain_id` on the calling thread. Returns its 0-based level, or -1 when the
// thread's table could not grow (the push is then not recorded).
int32_t PushLevel(uint64_t domain_id);

// Closes the innermost open range of `domain_id` on the calling thread. Returns the level it had,
// or -1 when the thread has no open range in that domain.
int32_t PopLevel(uint64_t domain_id);

}  // namespace prof::injection::nvtx
