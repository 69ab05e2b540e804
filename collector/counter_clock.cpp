#include "collector/counter_clock.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <thread>
#include <utility>

namespace prof::collector {
namespace {

using protocol::CounterSample;
using Uint128 = unsigned __int128;

constexpr uint64_t kThinnedSpacingNs = 1'000'000'000;

// The clocksource the kernel reads for CLOCK_MONOTONIC on this architecture's counter.
#if defined(__x86_64__)
constexpr const char* kCounterClocksource = "tsc";
#elif defined(__aarch64__)
constexpr const char* kCounterClocksource = "arch_sys_counter";
#else
constexpr const char* kCounterClocksource = nullptr;
#endif

// Paravirtual clocksources that compute CLOCK_MONOTONIC from the CPU's counter with parameters the
// hypervisor keeps per virtual CPU. They agree across CPUs only when the host keeps the guests'
// counters in step (kvm-clock's "stable" flag, without which the vDSO does not even use it), which
// a program cannot read: prof checks the outcome instead (SampledOnEveryCpu).
#if defined(__x86_64__)
constexpr std::array<const char*, 1> kCounterDerivedClocksources = {"kvm-clock"};
#else
constexpr std::array<const char*, 0> kCounterDerivedClocksources = {};
#endif

// `ticks` on the line through `a` and `b` (a.ticks < b.ticks), saturating at the ends of the range.
uint64_t OnLine(const CounterSample& a, const CounterSample& b, uint64_t ticks) {
  const Uint128 ns_span = b.ns - a.ns;
  const Uint128 tick_span = b.ticks - a.ticks;
  if (ticks >= a.ticks) {
    const Uint128 ns = a.ns + Uint128{ticks - a.ticks} * ns_span / tick_span;
    return ns > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(ns);
  }
  const Uint128 before = Uint128{a.ticks - ticks} * ns_span / tick_span;
  return before >= a.ns ? 0 : a.ns - static_cast<uint64_t>(before);
}

// Samples the counter on every CPU this process may run on, from a thread of its own (so the
// caller's affinity stays as it was), between a first and a last sample on the first CPU; false
// when a CPU could not be visited.
bool SampledOnEveryCpu(CounterSample* first, CounterSample* last,
                       std::vector<CounterSample>* samples) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return false;
  bool visited_all = true;
  std::thread sampler([&] {
    auto move_to = [](int cpu) {
      cpu_set_t only;
      CPU_ZERO(&only);
      CPU_SET(cpu, &only);
      return pthread_setaffinity_np(pthread_self(), sizeof(only), &only) == 0 &&
             sched_getcpu() == cpu;
    };
    int first_cpu = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, &allowed)) continue;
      if (!move_to(cpu)) {
        visited_all = false;
        return;
      }
      if (first_cpu < 0) {
        first_cpu = cpu;
        *first = protocol::SampleCounter();
      } else {
        samples->push_back(protocol::SampleCounter());
      }
    }
    if (first_cpu < 0 || !move_to(first_cpu)) {
      visited_all = false;
      return;
    }
    *last = protocol::SampleCounter();
  });
  sampler.join();
  return visited_all;
}

}  // namespace

bool CounterClock::SamplesOnOneLine(const CounterSample& first, const CounterSample& last,
                                    const std::vector<CounterSample>& samples) {
  if (last.ticks <= first.ticks || last.ns <= first.ns) return false;
  for (const CounterSample& sample : samples) {
    const uint64_t expected = OnLine(first, last, sample.ticks);
    const uint64_t distance = expected > sample.ns ? expected - sample.ns : sample.ns - expected;
    if (distance > kCrossCpuToleranceNs) return false;
  }
  return true;
}

bool CounterClock::KernelKeepsTimeWithCounter(std::string* why_not) {
  if (kCounterClocksource == nullptr) {
    *why_not = "no CPU counter prof reads on this architecture";
    return false;
  }
  if (!protocol::CpuHasInvariantCounter()) {
    *why_not = "the CPU's counter is not invariant";
    return false;
  }
  std::ifstream file("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string clocksource;
  if (!std::getline(file, clocksource)) {
    *why_not = "the kernel's clocksource is unknown";
    return false;
  }
  if (clocksource == kCounterClocksource) return true;
  const bool derived =
      std::any_of(kCounterDerivedClocksources.begin(), kCounterDerivedClocksources.end(),
                  [&](const char* name) { return clocksource == name; });
  if (!derived) {
    *why_not = "the kernel keeps time with " + clocksource + ", not " + kCounterClocksource;
    return false;
  }
  CounterSample first;
  CounterSample last;
  std::vector<CounterSample> samples;
  if (!SampledOnEveryCpu(&first, &last, &samples)) {
    *why_not = "the counter could not be sampled on every CPU";
    return false;
  }
  if (!SamplesOnOneLine(first, last, samples)) {
    *why_not = "the kernel keeps time with " + clocksource +
               ", whose CPUs' counters do not agree on one line";
    return false;
  }
  return true;
}

CounterClock::CounterClock(Sampler sample) : sample_(std::move(sample)) { Add(sample_()); }

uint64_t CounterClock::ToMonotonicNs(uint64_t ticks) {
  // Before a second sample there is no rate: a tick from before the first one (a GPU metric sample
  // taken before its clock was made) takes one too.
  if (ticks >= samples_.back().ticks || samples_.size() < 2) Add(sample_());
  if (samples_.size() < 2) return samples_.back().ns;  // the clocks stood still: no rate yet
  // The first sample after `ticks`, and the one before it; past either end, the nearest interval.
  auto after = std::upper_bound(
      samples_.begin(), samples_.end(), ticks,
      [](uint64_t value, const CounterSample& sample) { return value < sample.ticks; });
  if (after == samples_.begin()) after = samples_.begin() + 1;
  if (after == samples_.end()) after = samples_.end() - 1;
  return OnLine(*(after - 1), *after, ticks);
}

void CounterClock::Add(CounterSample sample) {
  if (!samples_.empty() &&
      (sample.ticks <= samples_.back().ticks || sample.ns <= samples_.back().ns)) {
    return;  // not later on both clocks (too soon to tell apart): the newest one stands
  }
  const size_t count = samples_.size();
  if (count >= 2 && samples_[count - 1].ns - samples_[count - 2].ns < kSampleSpacingNs) {
    samples_.back() = sample;
    return;
  }
  samples_.push_back(sample);
  if (samples_.size() - thinned_ > kMaxSamples) ThinOldSamples();
}

void CounterClock::ThinOldSamples() {
  const size_t old_end = samples_.size() - kRecentSamples;
  size_t kept = std::max<size_t>(thinned_, 1);
  for (size_t i = kept; i < old_end; ++i) {
    if (samples_[i].ns - samples_[kept - 1].ns >= kThinnedSpacingNs) samples_[kept++] = samples_[i];
  }
  samples_.erase(samples_.begin() + static_cast<ptrdiff_t>(kept),
                 samples_.begin() + static_cast<ptrdiff_t>(old_end));
  thinned_ = kept;
}

}  // namespace prof::collector
