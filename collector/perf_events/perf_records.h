// The records a perf_event_open sampling session delivers, decoded from the kernel's ring format
// into typed structs, and the sink that receives them.
//
// Contract:
// - Every record carries the sample_id fields the session asks for (pid, tid, CLOCK_MONOTONIC ns,
//   cpu), including side-band records (COMM, MMAP, FORK...), so all of them can be ordered by time.
// - Spans and string_views point into the ring or a scratch copy: valid during the callback only.
//   Copy what must outlive it.
// - Sink callbacks run on the thread that calls PerfSession::Drain(), one at a time.
//
// Adding a record type: a struct here, a virtual On...() in PerfRecordSink, an alternative of
// PerfRecord (perf_record_parser.h), a case in DecodePerfRecord() and in DeliverPerfRecord().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace prof::collector::perf {

// A read-only view of `size` values (std::span is C++20).
template <typename T>
struct PerfSpan {
  const T* data = nullptr;
  size_t size = 0;

  const T* begin() const { return data; }
  const T* end() const { return data + size; }
  bool empty() const { return size == 0; }
  const T& operator[](size_t i) const { return data[i]; }
};

// The sample_id fields every record has (sample_id_all): who, when, where.
struct PerfRecordId {
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint64_t time_ns = 0;  // CLOCK_MONOTONIC (use_clockid), the clock of every prof timestamp
  uint32_t cpu = 0;
};

struct PerfSample {
  PerfRecordId id;
  uint64_t ip = 0;
  // --backtrace=fp: user return addresses, innermost first (ips[0] is the sampled ip); the
  // kernel's PERF_CONTEXT_* markers are removed. Empty otherwise.
  PerfSpan<uint64_t> callchain;
  // --backtrace=dwarf: PERF_SAMPLE_REGS_ABI_* (0 when the kernel had no user registers, e.g. a
  // sample in a kernel thread) and the registers of kPerfUserRegsMask in ascending bit order of
  // enum perf_event_x86_regs (PerfUserRegIndex() finds one). Empty otherwise.
  uint64_t regs_abi = 0;
  PerfSpan<uint64_t> regs;
  // --backtrace=dwarf: the user stack copied from the stack pointer upwards. `stack` has the
  // requested size; only its first `stack_dyn_size` bytes were filled by the kernel.
  PerfSpan<uint8_t> stack;
  uint64_t stack_dyn_size = 0;
};

// PERF_RECORD_SWITCH (this thread's own switch) or PERF_RECORD_SWITCH_CPU_WIDE (which also names
// the other thread; not produced by per-task events, decoded for completeness).
struct PerfSwitch {
  PerfRecordId id;
  bool switch_out = false;  // false: switched in
  // Only for a switch out: true when the thread was still runnable (preempted), false when it
  // blocked (sleep, lock, I/O).
  bool preempted = false;
  bool cpu_wide = false;
  uint32_t other_pid = 0;  // cpu_wide only: the thread switched to (out) or from (in)
  uint32_t other_tid = 0;
};

struct PerfComm {
  PerfRecordId id;
  uint32_t pid = 0;
  uint32_t tid = 0;
  bool exec = false;      // the name changed because of an exec, not prctl(PR_SET_NAME)
  std::string_view name;  // the kernel's 16-byte comm, without the terminating zero
};

// PERF_RECORD_FORK and PERF_RECORD_EXIT: processes and threads starting and ending.
struct PerfTask {
  PerfRecordId id;
  bool exit = false;  // false: fork (a new process or thread)
  uint32_t pid = 0;
  uint32_t ppid = 0;
  uint32_t tid = 0;
  uint32_t ptid = 0;
  uint64_t time_ns = 0;  // the task event's own time, CLOCK_MONOTONIC
};

// PERF_RECORD_MMAP or PERF_RECORD_MMAP2 of an executable mapping (mmap_data is off).
struct PerfMmap {
  PerfRecordId id;
  bool mmap2 = false;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint64_t address = 0;
  uint64_t length = 0;
  uint64_t page_offset = 0;  // file offset of `address`
  uint32_t prot = 0;         // mmap2 only: PROT_*
  uint32_t flags = 0;        // mmap2 only: MAP_*
  // mmap2 with PERF_RECORD_MISC_MMAP_BUILD_ID: the file's ELF build id (usually 20 bytes);
  // otherwise empty and the device/inode fields are set.
  PerfSpan<uint8_t> build_id;
  uint32_t device_major = 0;
  uint32_t device_minor = 0;
  uint64_t inode = 0;
  std::string_view path;  // "//anon", "[vdso]" and the like for mappings without a file
};

// PERF_RECORD_LOST (the ring was full: `lost` records were dropped by the kernel) or
// PERF_RECORD_LOST_SAMPLES (`samples` = true: samples the PMU dropped).
struct PerfLost {
  PerfRecordId id;
  uint64_t lost = 0;
  bool samples = false;
};

// PERF_RECORD_THROTTLE / UNTHROTTLE: the kernel stopped (restarted) sampling because the sample
// rate exceeded perf_event_max_sample_rate or the interrupt took too long.
struct PerfThrottle {
  PerfRecordId id;
  bool throttled = true;  // false: unthrottled
  uint64_t time_ns = 0;
};

// Receives decoded records in timestamp order within one Drain() pass. Every method has an empty
// default, so a sink overrides only what it uses.
class PerfRecordSink {
 public:
  virtual ~PerfRecordSink() = default;
  virtual void OnSample(const PerfSample& sample) {}
  virtual void OnSwitch(const PerfSwitch& change) {}
  virtual void OnComm(const PerfComm& comm) {}
  virtual void OnTask(const PerfTask& task) {}
  virtual void OnMmap(const PerfMmap& mapping) {}
  virtual void OnLost(const PerfLost& lost) {}
  virtual void OnThrottle(const PerfThrottle& throttle) {}
};

// Cumulative counts over a session's life (every Drain() and the final one of Close()).
struct PerfCounters {
  uint64_t records = 0;               // records delivered to the sink
  uint64_t samples = 0;               // of which PERF_RECORD_SAMPLE
  uint64_t lost_records = 0;          // sum of PERF_RECORD_LOST's counts: dropped, ring full
  uint64_t lost_samples = 0;          // sum of PERF_RECORD_LOST_SAMPLES's counts
  uint64_t throttles = 0;             // PERF_RECORD_THROTTLE records
  uint64_t unthrottles = 0;           // PERF_RECORD_UNTHROTTLE records
  uint64_t unknown_records = 0;       // types this decoder does not know: skipped
  uint64_t malformed_records = 0;     // records shorter than their type needs: skipped
  uint64_t malformed_ring_bytes = 0;  // bytes skipped when a ring's framing broke (size 0...)
};

}  // namespace prof::collector::perf
