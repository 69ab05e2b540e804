// CPU sampling records (RecordKind block 128..143 of record_format.h).
//
// kCpuSample comes from libprof_core's sampler (injection/core/timer_sampler.cpp), which runs
// inside the program: in every process when perf_event_open is refused
// (InjectionSettings::timer_sampling_hz), and in the processes that run CPython while the kernel
// samples the rest (python_sampling_hz), so that a sample's Python frames are read at its instant.
// Each thread of such a process is sampled at that rate of its own CPU time. A sample is a program
// event (CaptureRoleOf: recorded only inside capture windows) and lands in the sampled thread's
// ring.
#pragma once

#include <cstdint>

#include "injection/protocol/record_format.h"

namespace prof::protocol {

// A CPU sample the program took of itself: header.tid = the sampled thread, header.timestamp_ns =
// when (CLOCK_MONOTONIC); then `frame_count` uint64 instruction pointers, leaf first (the leaf is
// the interrupted pc, the rest return addresses, from the frame-pointer chain); then
// `python_frame_count` Python frames of the same instant as (code object address, instruction)
// uint64 pairs, innermost first, which the launcher names (as an OS-runtime backtrace's).
struct CpuSampleRecord {
  RecordHeader header;
  uint32_t cpu;  // sched_getcpu() at the sample, or UINT32_MAX
  uint16_t frame_count;
  uint8_t truncated;  // 1: the chain went on past kMaxSampleFrames or left the stack
  uint8_t python_frame_count;
};
static_assert(sizeof(CpuSampleRecord) == 24);
inline constexpr uint16_t kMaxSampleFrames = 127;
inline constexpr uint8_t kMaxSamplePythonFrames = 64;
inline constexpr size_t kSamplePythonFrameBytes = 2 * sizeof(uint64_t);
// The frames travel as the record's trailing bytes (EmitRecordWithText), which are capped.
static_assert(kMaxSampleFrames * sizeof(uint64_t) +
                  kMaxSamplePythonFrames * kSamplePythonFrameBytes <=
              kMaxTextLength);

// Whether `sample`'s size is what its frame counts say, within the limits: the launcher skips
// (and counts as malformed) any other.
inline bool CpuSampleFramed(const CpuSampleRecord& sample) {
  return sample.frame_count <= kMaxSampleFrames &&
         sample.python_frame_count <= kMaxSamplePythonFrames &&
         sample.header.size == sizeof(CpuSampleRecord) + sample.frame_count * sizeof(uint64_t) +
                                   sample.python_frame_count * kSamplePythonFrameBytes;
}

}  // namespace prof::protocol
