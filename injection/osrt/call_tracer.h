// The fast path every wrapper runs: decide whether a call is traced, time it with the duration
// clock, and hand calls that lasted at least the threshold to RecordCall().
//
// Contract:
// - Re-entrant and async-signal-safe: the state is per thread (initial-exec TLS, zero-initialised,
//   so threads started before the tracer was ready need no set-up) plus globals written before
//   g_tracer.active is published. A signal handler's calls nest inside the interrupted call and
//   are recorded with the next nesting level.
// - A call shorter than the threshold costs two duration-clock reads and a few loads: no
//   clock_gettime, no system call, errno untouched.
// - Calls made while this thread records (EmitRecord may lock or wake the flusher) are not traced.
// - RecordCall() preserves errno and emits only when the stream is enabled and the thread is not
//   running prof's own code (InsideInternalCall).
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "injection/osrt/tsc_clock.h"

#pragma GCC visibility push(hidden)

namespace prof::injection::osrt {

struct TracerState {
  std::atomic<bool> active{false};  // osrt tracing requested and the clock calibrated
  uint64_t threshold_ticks = 0;     // Settings().osrt_threshold_ns in duration-clock ticks
  // Calls at least this long carry their backtrace (call_backtrace.h); UINT64_MAX: none.
  uint64_t backtrace_threshold_ticks = UINT64_MAX;
  uint32_t backtrace_depth = 0;
  TscClock clock;
};
extern TracerState g_tracer;

struct ThreadState {
  uint32_t depth;  // traced calls in progress on this thread (signal handlers nest)
  bool recording;  // inside RecordCall
};
extern __thread ThreadState t_thread __attribute__((tls_model("initial-exec")));

// One call in progress; `timed` is false when the call is not traced.
struct CallTiming {
  uint64_t start_ticks;
  uint32_t level;
  bool timed;
};

// Emits the record of a call that lasted at least the threshold. Cold, out of line.
void RecordCall(const CallTiming& timing, uint64_t end_ticks, uint16_t function_id,
                int64_t return_value);

inline CallTiming BeginCall() {
  ThreadState& thread = t_thread;
  if (!g_tracer.active.load(std::memory_order_acquire) || thread.recording) return {0, 0, false};
  const CallTiming timing{g_tracer.clock.Now(), thread.depth, true};
  ++thread.depth;
  return timing;
}

inline void EndCall(const CallTiming& timing, uint16_t function_id, int64_t return_value) {
  if (!timing.timed) return;
  const uint64_t end_ticks = g_tracer.clock.Now();
  --t_thread.depth;
  // A counter that ran backwards (cores out of sync) shows up here as a huge unsigned duration;
  // RecordCall discards it.
  if (end_ticks - timing.start_ticks >= g_tracer.threshold_ticks) {
    RecordCall(timing, end_ticks, function_id, return_value);
  }
}

// Ends a call without recording it (the child side of fork).
inline void AbandonCall(const CallTiming& timing) {
  if (timing.timed) --t_thread.depth;
}

template <typename T>
int64_t ToReturnValue(T value) {
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(value));
  } else {
    return static_cast<int64_t>(value);
  }
}

// Runs `call` (which calls the next definition) as traced function `function_id`.
template <typename Call>
inline auto TraceCall(uint16_t function_id, Call&& call) {
  const CallTiming timing = BeginCall();
  const auto result = call();
  EndCall(timing, function_id, ToReturnValue(result));
  return result;
}

}  // namespace prof::injection::osrt

#pragma GCC visibility pop
