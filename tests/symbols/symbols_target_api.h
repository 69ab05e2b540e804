// What symbols_target and its plugin share, and the capture file symbols_test reads.
#pragma once

#include <cstdint>

// noipa keeps GCC from cloning (".constprop") or folding the functions whose names tests check.
#if defined(__clang__)
#define PROF_TEST_NOINLINE __attribute__((noinline))
#else
#define PROF_TEST_NOINLINE __attribute__((noipa))
#endif

extern "C" int plugin_call(int (*function)(int), int rounds);

// capture.bin: this header, then `stack_size` bytes of the stack from `registers[SP]` up.
struct CaptureHeader {
  char magic[8];           // "PROFCAP1"
  uint64_t registers[24];  // enum perf_event_x86_regs order
  uint64_t stack_size;
};
