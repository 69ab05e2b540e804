#include "injection/osrt/tsc_clock.h"

namespace prof::injection::osrt {
namespace {

using Uint128 = unsigned __int128;

constexpr double kQ32 = 4294967296.0;

// Counters slower than 1 MHz or faster than 20 GHz mean the calibration went wrong.
constexpr uint64_t kMinNsPerTickQ32 = (uint64_t{1} << 32) / 20;
constexpr uint64_t kMaxNsPerTickQ32 = uint64_t{1000} << 32;

// Divisions run in double, off the fast path: 128-bit integer division would pull libgcc_s.so
// into the program, and 53 bits of precision are plenty for a rate.
uint64_t RateQ32(uint64_t ns, uint64_t ticks) {
  return static_cast<uint64_t>(static_cast<double>(ns) / static_cast<double>(ticks) * kQ32);
}

}  // namespace

void TscClock::Calibrate(Source preferred, uint64_t window_ns) {
  source_ = Source::kMonotonic;
  ns_per_tick_q32_.store(uint64_t{1} << 32, std::memory_order_relaxed);
  span_ns_.store(0, std::memory_order_relaxed);
  if (preferred != Source::kCounter || !protocol::CpuHasInvariantCounter()) return;

  const Sample first = protocol::SampleCounter();
  while (NowMonotonic() - first.ns < window_ns) {
  }
  const Sample second = protocol::SampleCounter();
  if (second.ticks <= first.ticks || second.ns <= first.ns) return;
  const uint64_t rate = RateQ32(second.ns - first.ns, second.ticks - first.ticks);
  if (rate < kMinNsPerTickQ32 || rate > kMaxNsPerTickQ32) return;

  anchor_ = first;
  ns_per_tick_q32_.store(rate, std::memory_order_relaxed);
  span_ns_.store(second.ns - first.ns, std::memory_order_relaxed);
  source_ = Source::kCounter;
}

uint64_t TscClock::TicksToNs(uint64_t ticks) const {
  return static_cast<uint64_t>(
      (Uint128{ticks} * ns_per_tick_q32_.load(std::memory_order_relaxed)) >> 32);
}

uint64_t TscClock::NsToTicks(uint64_t ns) const {
  return static_cast<uint64_t>(
      static_cast<double>(ns) * kQ32 /
      static_cast<double>(ns_per_tick_q32_.load(std::memory_order_relaxed)));
}

void TscClock::MaybeRefine(uint64_t now_ns) {
  if (source_ != Source::kCounter) return;
  uint64_t span = span_ns_.load(std::memory_order_relaxed);
  if (now_ns < anchor_.ns || now_ns - anchor_.ns < 2 * span) return;
  const Sample now = protocol::SampleCounter();
  if (now.ticks <= anchor_.ticks || now.ns <= anchor_.ns) return;
  const uint64_t new_span = now.ns - anchor_.ns;
  // One winner per doubling; a loser's sample is no better than the winner's.
  if (!span_ns_.compare_exchange_strong(span, new_span, std::memory_order_relaxed)) return;
  const uint64_t rate = RateQ32(new_span, now.ticks - anchor_.ticks);
  if (rate >= kMinNsPerTickQ32 && rate <= kMaxNsPerTickQ32) {
    ns_per_tick_q32_.store(rate, std::memory_order_relaxed);
  }
}

}  // namespace prof::injection::osrt
