// The CPU's own time counter (x86's TSC, Arm's generic timer): one instruction to read, a fraction
// of clock_gettime's cost, and on a machine whose kernel keeps time with it (clocksource `tsc`) the
// counter CLOCK_MONOTONIC itself is computed from, so a (ticks, ns) pair read by any process maps
// ticks of every other process of the machine onto CLOCK_MONOTONIC.
//
// Users: the OS-runtime tracer's duration clock (injection/osrt/tsc_clock.h) and the NVTX
// push/pop ranges stamped in ticks, which the launcher converts (collector/counter_clock.h).
// Everything here is lock-free, allocation-free and async-signal-safe.
#pragma once

#include <cstdint>

#include "injection/protocol/clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace prof::protocol {

inline uint64_t ReadCpuCounter() {
#if defined(__x86_64__)
  return __rdtsc();
#elif defined(__aarch64__)
  uint64_t ticks;
  asm volatile("mrs %0, cntvct_el0" : "=r"(ticks));
  return ticks;
#else
  return MonotonicNowNs();
#endif
}

// True when the counter ticks at a constant rate in every power state, on every core.
inline bool CpuHasInvariantCounter() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;  // "Invariant TSC" (Intel SDM, AMD APM)
#elif defined(__aarch64__)
  return true;  // the architected generic timer counts at a fixed frequency by definition
#else
  return false;
#endif
}

// A counter reading and the CLOCK_MONOTONIC reading taken at the same moment.
struct CounterSample {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

// Brackets a clock_gettime between two counter reads, a few times, and keeps the tightest
// bracket: its middle is within a few ns of the tick the kernel's clock read.
inline CounterSample SampleCounter() {
  constexpr int kAttempts = 5;
  CounterSample best;
  uint64_t best_width = ~uint64_t{0};
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const uint64_t before = ReadCpuCounter();
    const uint64_t ns = MonotonicNowNs();
    const uint64_t after = ReadCpuCounter();
    if (after - before < best_width) {
      best_width = after - before;
      best = {before + (after - before) / 2, ns};
    }
  }
  return best;
}

}  // namespace prof::protocol
