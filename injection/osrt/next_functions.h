// The definitions the wrappers forward to: the next ones after libprof_osrt.so in the symbol lookup
// order (libc's, or those of an interposer preloaded after prof), found with dlsym(RTLD_NEXT) — or
// with dlvsym where dlsym would return an old compat version (pthread_cond_* on x86_64).
//
// Contract:
// - NextFunctionAddress(id) returns nullptr when the function cannot be had now: the running libc
//   lacks it, or this thread is already inside dlsym (an allocator that dlsym called re-entered a
//   wrapper). Wrappers then make the raw system call or fail with ENOSYS; they never recurse.
// - A resolved lookup is one relaxed load: lock-free and async-signal-safe. The library
//   constructor resolves every function, so only calls made before it (from constructors of
//   libraries loaded earlier, such as libprof_core.so's) ever reach dlsym.
#pragma once

#include <atomic>
#include <cstdint>

#include "injection/protocol/osrt_functions.h"

#pragma GCC visibility push(hidden)

namespace prof::injection::osrt {

extern std::atomic<void*> g_next_functions[protocol::kOsrtFunctionCount];

// Slow path of NextFunctionAddress: looks `id` up once.
void* ResolveNextFunction(uint16_t id);
// Resolves every function of the table (library constructor).
void ResolveAllNextFunctions();

inline void* NextFunctionAddress(uint16_t id) {
  void* const address = g_next_functions[id].load(std::memory_order_relaxed);
  return address != nullptr ? address : ResolveNextFunction(id);
}

template <typename Function>
Function NextFunction(uint16_t id) {
  return reinterpret_cast<Function>(NextFunctionAddress(id));
}

}  // namespace prof::injection::osrt

#pragma GCC visibility pop
