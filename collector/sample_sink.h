// Where CPU samples go once decoded, whichever way they were taken (perf_event_open in the
// launcher, or the program's own fallback sampler: collector/timer_sample_tracker.h).
//
// Called on the collector thread only. `ips` points into the record being decoded: valid only
// during the call, leaf first (the leaf is the sampled pc, the rest return addresses).
#pragma once

#include <cstddef>
#include <cstdint>

namespace prof::collector {

struct RawCpuSample {
  uint64_t stream;  // ProcessStream::stream_id of the process image that took it
  uint32_t pid;
  uint32_t tid;
  uint32_t cpu;      // UINT32_MAX when unknown
  uint64_t time_ns;  // CLOCK_MONOTONIC
  const uint64_t* ips;
  size_t ip_count;
  bool truncated;  // the chain went on past what was recorded, or left the stack
  // Python frames read at the same instant, as (code object, instruction) pairs, innermost first
  // (the program's own samples only: sample_records.h).
  const uint64_t* python_pairs = nullptr;
  size_t python_count = 0;
  // The program's own samples with a stack copy (sample_records.h): the registers
  // (protocol::kSampleRegisterCount, perf_event_x86_regs order) and the stack from the sampled
  // stack pointer up, for DWARF unwinding; null and 0 otherwise.
  const uint64_t* registers = nullptr;
  const uint8_t* stack = nullptr;
  size_t stack_size = 0;
  uint32_t periods = 1;  // sampling periods the sample stands for: written as that many samples
};

class CpuSampleSink {
 public:
  virtual ~CpuSampleSink() = default;
  virtual void OnCpuSample(const RawCpuSample& sample) = 0;
};

}  // namespace prof::collector
