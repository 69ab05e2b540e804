// The event stream of one traced process: what every injected tracer (OS runtime, NVTX, CUDA) calls
// to hand a record to the launcher. Implemented once, in libprof_core.so, so that all tracers of a
// process share one connection.
//
// Guarantees:
// - Emit* never blocks the program indefinitely and never throws. Each thread appends to its own
//   ring in memory shared with the launcher, which drains it; a published record is the
//   launcher's even if the process dies right after. When a ring stays full longer than the
//   bounded wait (kProducerWaitLimitNs in event_stream.cpp), the record is dropped and counted;
//   the launcher turns the count into a DroppedRecords record.
// - Emit* is async-signal-safe: a signal handler that emits while its thread is already inside
//   Emit* has its record dropped and counted rather than corrupting the buffer.
// - Emit* fills header.tid and header.size; the caller fills kind and timestamp_ns.
// - Nothing is emitted before the stream is connected, after it is closed, or in a thread marked
//   internal (ScopedInternalCall), which keeps prof's own system calls out of the trace.
// - After fork() the child opens its own connection and rings (from the pthread_atfork child
//   handler); the parent's rings stay the parent's, never written by the child.
#pragma once

#include <cstddef>
#include <cstdint>

#include "injection/protocol/clock.h"
#include "injection/protocol/launch_settings.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/sample_records.h"

#define PROF_EXPORT __attribute__((visibility("default")))

namespace prof::injection {

using protocol::MonotonicNowNs;

// The settings the launcher passed; all-zero trace flags when the process was not launched by prof.
PROF_EXPORT const protocol::InjectionSettings& Settings();

// True when this process streams events (settings decoded and connected).
PROF_EXPORT bool StreamEnabled();

// Kernel thread id of the calling thread, cached per thread (reset in a fork child).
PROF_EXPORT uint32_t CurrentTid();

// Appends `record` (a fixed-size struct starting with RecordHeader, `fixed_size` bytes) to the
// calling thread's buffer.
PROF_EXPORT void EmitRecord(protocol::RecordHeader* record, size_t fixed_size);

// As EmitRecord, followed by `text_length` bytes of `text` (truncated to kMaxTextLength; the caller
// stores the same, truncated length in the record's text_length field via ClampTextLength).
PROF_EXPORT void EmitRecordWithText(protocol::RecordHeader* record, size_t fixed_size,
                                    const char* text, size_t text_length);

// A CPU sample (kCpuSample, timer_sampler.cpp): `fixed_size` bytes of the record, its frames and
// registers, then `stack_bytes` bytes of the thread's stack copy (not truncated: the record's own
// counts say its size). Async-signal-safe, as EmitRecordWithText; a sample that must wait for its
// thread's own Emit waits without its stack copy (event_stream.cpp).
void EmitCpuSample(protocol::CpuSampleRecord* sample, size_t fixed_size, const void* stack,
                   size_t stack_bytes);

// Push/pop ranges, one record per range: OpenPushPopRange writes the range's record (`kind`
// kNvtxPushPopRange, or kNvtxPushPopRangeTicks with `start` and ClosePushPopRange's `end_ns` in
// counter ticks; `level` the level the push returned; then `text_length` bytes of `text`) into the
// calling thread's ring memory, where it stays while the range is open; ClosePushPopRange emits
// it whole, ended at `end_ns`. A range open when
// its process ends is taken from there by the launcher (NvtxRangeEnding). Whether a range is
// traced is decided at its push (capture windows), so a range pushed while collection is on is
// recorded with its real end even if collection stopped before its pop.
PROF_EXPORT void OpenPushPopRange(protocol::RecordKind kind, uint64_t start, uint64_t domain_id,
                                  uint64_t level, const protocol::NvtxRangeAttributes& attributes,
                                  const char* text, size_t text_length);
// Ends the innermost open range of `domain_id` at `level` on the calling thread; nothing when
// there is none (its push was not traced).
PROF_EXPORT void ClosePushPopRange(uint64_t domain_id, uint64_t level, uint64_t end_ns);

inline uint32_t ClampTextLength(size_t length) {
  return static_cast<uint32_t>(length < protocol::kMaxTextLength ? length
                                                                 : protocol::kMaxTextLength);
}

// While alive, the calling thread's records wait up to kPatientWaitLimitNs (event_stream.cpp) for
// ring space instead of the short bounded wait, and never enter drop mode early. For threads that
// deliver bulk data on behalf of the program (CUPTI's buffer-completion thread),
// where waiting costs the program nothing and dropping loses GPU activity.
class PROF_EXPORT ScopedPatientEmit {
 public:
  ScopedPatientEmit();
  ~ScopedPatientEmit();
  ScopedPatientEmit(const ScopedPatientEmit&) = delete;
  ScopedPatientEmit& operator=(const ScopedPatientEmit&) = delete;
};

// True while the calling thread runs prof's own code; interposers then call through untraced.
PROF_EXPORT bool InsideInternalCall();

// Marks the calling thread as running prof code for its lifetime. Nests.
class PROF_EXPORT ScopedInternalCall {
 public:
  ScopedInternalCall();
  ~ScopedInternalCall();
  ScopedInternalCall(const ScopedInternalCall&) = delete;
  ScopedInternalCall& operator=(const ScopedInternalCall&) = delete;
};

}  // namespace prof::injection
