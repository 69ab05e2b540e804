// Per-thread, per-domain push/pop nesting: the levels nvtxRangePush and nvtxRangePop return.
//
// NVTX keeps one push/pop stack per thread and domain; the tracer only needs its depth. Each thread
// touches only its own table (thread_local), so no locks. The first 16 domain ids live inline and
// cost no allocation, also on a thread's first push inside a signal handler; a thread that uses a
// larger domain id grows a heap table (malloc), freed when the thread exits.
#pragma once

#include <cstdint>

namespace prof::injection::nvtx {

inline constexpr uint64_t kInlineDomains = 16;

// The depths of the first kInlineDomains domains. Constant-initialised and trivially destructible:
// no guard, no destructor registration, so the first push of a thread allocates nothing, also
// inside a signal handler. (With TLS descriptors, see CMakeLists.txt, glibc also places this
// library's thread-local storage in the static block every thread starts with instead of
// allocating it on the thread's first access.) Inline below: every push and pop reads it.
extern thread_local int32_t t_inline_levels[kInlineDomains];

int32_t PushLevelOfLaterDomain(uint64_t domain_id);
int32_t PopLevelOfLaterDomain(uint64_t domain_id);

// Opens a range in `domain_id` on the calling thread. Returns its 0-based level, or -1 when the
// thread's table could not grow (the push is then not recorded).
inline int32_t PushLevel(uint64_t domain_id) {
  if (domain_id >= kInlineDomains) return PushLevelOfLaterDomain(domain_id);
  return t_inline_levels[domain_id]++;
}

// Closes the innermost open range of `domain_id` on the calling thread. Returns the level it had,
// or -1 when the thread has no open range in that domain.
inline int32_t PopLevel(uint64_t domain_id) {
  if (domain_id >= kInlineDomains) return PopLevelOfLaterDomain(domain_id);
  int32_t& depth = t_inline_levels[domain_id];
  if (depth == 0) return -1;
  return --depth;
}

}  // namespace prof::injection::nvtx
