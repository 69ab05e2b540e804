// CPU sampling records (RecordKind block 128..143 of record_format.h).
//
// kCpuSample comes from libprof_core's fallback sampler (injection/core/timer_sampler.cpp), which
// runs inside the program when perf_event_open is refused: each thread of the process is sampled
// at InjectionSettings::timer_sampling_hz of its own CPU time. A sample is a program event
// (CaptureRoleOf: recorded only inside capture windows) and lands in the sampled thread's ring.
#pragma once

#include <cstdint>

#include "injection/protocol/record_format.h"

namespace prof::protocol {

// A CPU sample the program took of itself (the fallback when perf_event_open is refused):
// header.tid = the sampled thread, header.timestamp_ns = when (CLOCK_MONOTONIC); then
// `frame_count` uint64 instruction pointers, leaf first (the leaf is the interrupted pc, the rest
// return addresses, from the frame-pointer chain).
struct CpuSampleRecord {
  RecordHeader header;
  uint32_t cpu;  // sched_getcpu() at the sample, or UINT32_MAX
  uint16_t frame_count;
  uint8_t truncated;  // 1: the chain went on past kMaxSampleFrames or left the stack
  uint8_t reserved;
};
static_assert(sizeof(CpuSampleRecord) == 24);
inline constexpr uint16_t kMaxSampleFrames = 127;
// The frames travel as the record's trailing bytes (EmitRecordWithText), which are capped.
static_assert(kMaxSampleFrames * sizeof(uint64_t) <= kMaxTextLength);

}  // namespace prof::protocol
