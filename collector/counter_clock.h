// Maps CPU counter ticks, read by any traced process (injection/protocol/cpu_counter.h), onto
// CLOCK_MONOTONIC ns, the clock of every other record; and, the same way, the times of GPU metric
// samples (collector/gpu_metrics/), whose clock is CUPTI's.
//
// The launcher samples (ticks, ns) pairs itself and interpolates between the two samples around
// each tick. Where the kernel keeps time with the counter, CLOCK_MONOTONIC is a piecewise linear
// function of it whose slope NTP nudges by parts per million; so the error of an interpolation is
// that slope's change within one sample interval (nanoseconds here), where a rate calibrated once
// in the program would drift by its own error (1 ppm is 3.6 ms an hour) and misplace NVTX ranges
// against the CUDA calls they enclose.
//
// Sampling: a tick past the newest sample takes a new sample (after the tick, since the tick was
// read before its record reached the launcher), so a batch of records costs about one sample. A
// tick past even that one (counters of two cores a few ticks apart, or a garbage record) is
// extrapolated from the last interval. Samples are kept (ranges can stay open for hours, and their
// starts convert only when they end), at least kSampleSpacingNs apart and thinned with age, so the
// history grows by about one sample per second of a long run.
//
// Single-threaded (the collector thread).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "injection/protocol/cpu_counter.h"

namespace prof::collector {

class CounterClock {
 public:
  // Whether ticks of this machine's counter convert exactly as above: the CPU's counter is
  // invariant, and the kernel's clocksource is that counter, or a paravirtual clock computed from
  // it (kvm-clock) whose samples on every CPU of this process lie on one line (SamplesOnOneLine).
  // Otherwise *why_not says why.
  static bool KernelKeepsTimeWithCounter(std::string* why_not);

  // Whether each of `samples` (taken on different CPUs, after `first` and before `last`, which
  // were taken on one CPU) lies within kCrossCpuToleranceNs of the line through `first` and `last`.
  static bool SamplesOnOneLine(const protocol::CounterSample& first,
                               const protocol::CounterSample& last,
                               const std::vector<protocol::CounterSample>& samples);
  // A record's time may be off by this much against another CPU's: far below what orders a
  // range against the calls it encloses on another thread, far above a sample's few ns.
  static constexpr uint64_t kCrossCpuToleranceNs = 250;

  // `sample`: how to read the pair (the CPU's counter; GPU metrics pass their sample clock's reader,
  // tests their own).
  using Sampler = std::function<protocol::CounterSample()>;
  explicit CounterClock(Sampler sample = protocol::SampleCounter);

  uint64_t ToMonotonicNs(uint64_t ticks);

  size_t samples_kept() const { return samples_.size(); }

  // The newest sample is replaced by a newer one while it is younger than this after the one
  // before it.
  static constexpr uint64_t kSampleSpacingNs = 10'000'000;
  // Beyond this many samples since the last thinning, those but the newest kRecentSamples are
  // thinned to one a second.
  static constexpr size_t kMaxSamples = 4096;
  static constexpr size_t kRecentSamples = 1024;

 private:
  void Add(protocol::CounterSample sample);
  void ThinOldSamples();

  Sampler sample_;
  std::vector<protocol::CounterSample> samples_;  // strictly increasing in both clocks
  size_t thinned_ = 0;                            // samples_[0, thinned_) are one a second
};

}  // namespace prof::collector
