// The duration clock of the OS-runtime fast path: ticks of the CPU's invariant time-stamp counter
// (rdtsc, ~12 ns on the build machine) when it has one, CLOCK_MONOTONIC ns (~27 ns) otherwise.
//
// Ticks only measure how long a call took, to compare it with the threshold; the timestamps of a
// record always come from MonotonicNowNs(), the clock of every other record.
//
// Contract:
// - Calibrate() runs once, before any other thread reads the clock (the library constructor).
// - Now(), TicksToNs() and NsToTicks() are lock-free, allocation-free and async-signal-safe.
// - MaybeRefine() may run on any thread at any time: racing refinements each store a valid rate.
#pragma once

#include <atomic>
#include <cstdint>

#include "injection/protocol/clock.h"
#include "injection/protocol/cpu_counter.h"

namespace prof::injection::osrt {

class TscClock {
 public:
  enum class Source { kCounter, kMonotonic };

  // Measures the counter's rate against CLOCK_MONOTONIC by busy-waiting `window_ns`. Falls back
  // to Source::kMonotonic when `preferred` says so, the counter is not invariant, or its measured
  // rate is implausible.
  void Calibrate(Source preferred, uint64_t window_ns);

  Source source() const { return source_; }
  uint64_t Now() const { return source_ == Source::kCounter ? ReadCounter() : NowMonotonic(); }
  uint64_t TicksToNs(uint64_t ticks) const;
  uint64_t NsToTicks(uint64_t ns) const;

  // Re-measures the rate over the whole time since calibration once that span has doubled, so
  // that long calls get accurate durations. Cheap when there is nothing to do (two loads).
  void MaybeRefine(uint64_t now_ns);
  // The span the current rate was measured over.
  uint64_t calibration_span_ns() const { return span_ns_.load(std::memory_order_relaxed); }

 private:
  using Sample = protocol::CounterSample;

  static uint64_t ReadCounter() { return protocol::ReadCpuCounter(); }
  static uint64_t NowMonotonic() { return protocol::MonotonicNowNs(); }

  Source source_ = Source::kMonotonic;
  Sample anchor_;
  // ns per tick as 32.32 fixed point: one multiply and shift per conversion.
  std::atomic<uint64_t> ns_per_tick_q32_{uint64_t{1} << 32};
  std::atomic<uint64_t> span_ns_{0};
};

}  // namespace prof::injection::osrt
