// The duration clock of the OS-runtime fast path (injection/osrt/tsc_clock.h).
#include "injection/osrt/tsc_clock.h"

#include <time.h>

#include <catch2/catch.hpp>
#include <cstdint>

#include "injection/protocol/clock.h"
#include "injection/protocol/cpu_counter.h"

namespace {

using prof::injection::osrt::TscClock;
using prof::protocol::CounterSample;
using prof::protocol::CpuHasInvariantCounter;
using prof::protocol::MonotonicNowNs;
using prof::protocol::SampleCounter;

void SleepNs(uint64_t ns) {
  const timespec duration{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  nanosleep(&duration, nullptr);
}

// Counter ticks and CLOCK_MONOTONIC over the same `sleep_ns`. Each end is a pair of readings
// taken at one moment (the tightest of a few brackets, as calibration takes them): bracketing one
// clock's reads with the other's lets a preemption between two reads, common on a loaded machine
// (13 us seen in CI), lengthen one interval and not the other.
struct Interval {
  uint64_t ticks;
  uint64_t ns;
};
Interval Measure(uint64_t sleep_ns) {
  const CounterSample start = SampleCounter();
  SleepNs(sleep_ns);
  const CounterSample end = SampleCounter();
  return {end.ticks - start.ticks, end.ns - start.ns};
}

}  // namespace

TEST_CASE("the counter converts to CLOCK_MONOTONIC durations within 0.1%") {
  if (!CpuHasInvariantCounter()) {
    WARN("no invariant counter on this CPU: the tracer uses CLOCK_MONOTONIC, tested below");
    return;
  }
  TscClock clock;
  clock.Calibrate(TscClock::Source::kCounter, 200'000);
  REQUIRE(clock.source() == TscClock::Source::kCounter);
  const Interval interval = Measure(20'000'000);
  const double converted = static_cast<double>(clock.TicksToNs(interval.ticks));
  // Each end's pair is a few clock reads wide at most.
  CHECK(converted <= interval.ns * 1.001 + 2000.0);
  CHECK(converted >= interval.ns * 0.999 - 2000.0);
}

TEST_CASE("NsToTicks inverts TicksToNs") {
  TscClock clock;
  clock.Calibrate(TscClock::Source::kCounter, 100'000);
  for (const uint64_t ns : {uint64_t{1000}, uint64_t{1'000'000}, uint64_t{10'000'000'000}}) {
    const uint64_t round_trip = clock.TicksToNs(clock.NsToTicks(ns));
    INFO(ns << " ns -> " << clock.NsToTicks(ns) << " ticks -> " << round_trip << " ns");
    CHECK(round_trip <= ns + 1);
    CHECK(round_trip + 1 + ns / 1'000'000 >= ns);
  }
}

TEST_CASE("refinement re-measures the rate once the span since calibration has doubled") {
  if (!CpuHasInvariantCounter()) {
    WARN("no invariant counter on this CPU");
    return;
  }
  TscClock clock;
  const uint64_t before_calibration = MonotonicNowNs();
  clock.Calibrate(TscClock::Source::kCounter, 50'000);
  const uint64_t first_span = clock.calibration_span_ns();
  CHECK(first_span >= 50'000);
  CHECK(first_span < 50'000'000);

  // Too early: at most one span has passed since calibration began. A fixed time, not the clock,
  // because a slow (sanitized, loaded) machine can take longer than the 50 us span to get here.
  clock.MaybeRefine(before_calibration + first_span);
  CHECK(clock.calibration_span_ns() == first_span);

  SleepNs(30'000'000);
  clock.MaybeRefine(MonotonicNowNs());
  CHECK(clock.calibration_span_ns() >= 30'000'000);
  const Interval interval = Measure(10'000'000);
  const double converted = static_cast<double>(clock.TicksToNs(interval.ticks));
  CHECK(converted <= interval.ns * 1.0005 + 2000.0);
  CHECK(converted >= interval.ns * 0.9995 - 2000.0);
}

TEST_CASE("the CLOCK_MONOTONIC source counts nanoseconds") {
  TscClock clock;
  clock.Calibrate(TscClock::Source::kMonotonic, 200'000);
  CHECK(clock.source() == TscClock::Source::kMonotonic);
  CHECK(clock.TicksToNs(123'456'789) == 123'456'789);
  CHECK(clock.NsToTicks(1000) == 1000);
  const uint64_t before = MonotonicNowNs();
  const uint64_t now = clock.Now();
  const uint64_t after = MonotonicNowNs();
  CHECK(now >= before);
  CHECK(now <= after);
  clock.MaybeRefine(MonotonicNowNs());
  CHECK(clock.calibration_span_ns() == 0);
}
