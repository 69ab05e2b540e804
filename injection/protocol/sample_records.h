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
// uint64 pairs, innermost first, which the launcher names (as an OS-runtime backtrace's); then,
// when `stack_bytes` is not 0, the material for unwinding the native stack with the binaries'
// unwind tables in the launcher (code without frame pointers: Debian's CPython, libtorch, libc):
// kSampleRegisterCount uint64 registers and `stack_bytes` bytes of the thread's stack, copied from
// its stack pointer up.
struct CpuSampleRecord {
  RecordHeader header;
  uint32_t cpu;  // sched_getcpu() at the sample, or UINT32_MAX
  uint16_t frame_count;
  uint8_t truncated;  // 1: the chain went on past kMaxSampleFrames or left the stack
  uint8_t python_frame_count;
  uint32_t stack_bytes;  // a multiple of 8, at most kMaxSampleStackBytes
  // Periods of CPU time the sample stands for (>= 1): a signal that came late for several
  // periods is one record, written as that many samples.
  uint16_t periods;
  uint16_t reserved;
};
static_assert(sizeof(CpuSampleRecord) == 32);
inline constexpr uint16_t kMaxSampleFrames = 127;
inline constexpr uint8_t kMaxSamplePythonFrames = 64;
inline constexpr size_t kSamplePythonFrameBytes = 2 * sizeof(uint64_t);
// x86-64's registers that unwinding needs, in the order of the kernel's enum perf_event_x86_regs
// (as perf delivers sample_regs_user): AX BX CX DX SI DI BP SP IP R8 R9 R10 R11 R12 R13 R14 R15.
inline constexpr size_t kSampleRegisterCount = 17;
inline constexpr uint32_t kMaxSampleStackBytes = 32768;
// The fixed part and the frames travel in the signal handler's own buffer; the stack copy follows.
static_assert(kMaxSampleFrames * sizeof(uint64_t) +
                  kMaxSamplePythonFrames * kSamplePythonFrameBytes <=
              kMaxTextLength);
static_assert(sizeof(CpuSampleRecord) + kMaxTextLength + kSampleRegisterCount * sizeof(uint64_t) +
                  kMaxSampleStackBytes <=
              UINT16_MAX);

// Bytes after the frames: the registers and the stack copy, when there is one.
inline size_t CpuSampleStackPartBytes(const CpuSampleRecord& sample) {
  return sample.stack_bytes == 0 ? 0 : kSampleRegisterCount * sizeof(uint64_t) + sample.stack_bytes;
}

// Whether `sample`'s size is what its counts say, within the limits: the launcher skips (and
// counts as malformed) any other.
inline bool CpuSampleFramed(const CpuSampleRecord& sample) {
  return sample.frame_count <= kMaxSampleFrames &&
         sample.python_frame_count <= kMaxSamplePythonFrames &&
         sample.stack_bytes <= kMaxSampleStackBytes && sample.stack_bytes % 8 == 0 &&
         sample.periods >= 1 &&
         sample.header.size == sizeof(CpuSampleRecord) + sample.frame_count * sizeof(uint64_t) +
                                   sample.python_frame_count * kSamplePythonFrameBytes +
                                   CpuSampleStackPartBytes(sample);
}

}  // namespace prof::protocol
