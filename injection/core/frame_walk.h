// The frame-pointer walk of the fallback CPU sampler (timer_sampler.cpp), on its own so that it can
// be tested on a hand-built stack.
//
// Async-signal-safe and allocation-free: it only reads memory inside `stack`, the sampled thread's
// own stack, which is mapped from its stack pointer up to its top for as long as the thread runs.
// Every frame must lie above the previous one (frames grow down, the walk goes up), so the walk
// ends however garbage the chain is.
#pragma once

#include <cstddef>
#include <cstdint>

namespace prof::injection {

// [low, high): the stack of the sampled thread; {0, 0} when unknown.
struct StackBounds {
  uintptr_t low = 0;
  uintptr_t high = 0;
};

struct WalkResult {
  size_t count = 0;        // ips written, the leaf (pc) first
  bool truncated = false;  // the chain went on past `capacity`, or left the stack
};

// Writes `pc`, then the return address of each frame record {saved fp, return address} reached
// from `fp`: x86-64's rbp chain and AArch64's x29 chain have this layout. The chain ends normally
// at a null frame pointer or a null return address. A stack pointer outside `stack` (an alternate
// signal stack, a coroutine's stack, bounds unknown) gives the leaf alone, truncated.
__attribute__((no_sanitize("address", "hwaddress"))) inline WalkResult WalkFramePointers(
    uintptr_t pc, uintptr_t fp, uintptr_t sp, StackBounds stack, uint64_t* ips, size_t capacity) {
  constexpr uintptr_t kFrameRecordSize = 2 * sizeof(uintptr_t);
  WalkResult result;
  if (capacity == 0) return result;
  ips[result.count++] = pc;
  if (sp < stack.low || sp >= stack.high || stack.high - stack.low < kFrameRecordSize) {
    result.truncated = true;
    return result;
  }
  uintptr_t floor = sp;  // the lowest address the next frame record may start at
  while (fp != 0) {
    if (fp < floor || fp > stack.high - kFrameRecordSize || fp % sizeof(uintptr_t) != 0) {
      result.truncated = true;
      break;
    }
    const auto* record = reinterpret_cast<const uintptr_t*>(fp);
    const uintptr_t return_address = record[1];
    if (return_address == 0) break;
    if (result.count == capacity) {
      result.truncated = true;
      break;
    }
    ips[result.count++] = return_address;
    floor = fp + kFrameRecordSize;
    fp = record[0];
  }
  return result;
}

}  // namespace prof::injection
