// The binary record stream between the code injected into a profiled process and the launcher.
//
// Contract:
// - Each traced process opens one connection to the launcher's Unix socket and sends a StreamHello
//   first, then the shared-memory segments of its thread rings (kRingSegment, thread_ring.h). The
//   program's threads write their records into those rings; the socket carries only the hello, the
//   rank, segments, drain requests and the exit. The launcher merges the socket's records and what
//   it drains from the rings into one stream per connection, in which every record starts with a
//   RecordHeader whose `size` is the whole record in bytes (header, fixed fields and any trailing
//   text), a multiple of 8.
// - Timestamps are CLOCK_MONOTONIC nanoseconds (the launcher rebases them to session start).
// - `tid` is the kernel thread id (gettid) of the thread the event happened on; pid comes from the
//   connection's StreamHello.
// - Text travels as `text_length` bytes of UTF-8 right after the fixed fields, without terminator.
// - Readers skip unknown kinds by `size` and count them, so new kinds never break old launchers.
//
// Adding a kind: give it the next free value in its block of RecordKind (values are never reused),
// define its struct here with a static_assert on its size, and register a handler in the
// collector's record dispatch table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace prof::protocol {

inline constexpr uint32_t kStreamMagic = 0x464f5250;  // "PROF" little-endian
inline constexpr uint16_t kStreamVersion = 3;
inline constexpr size_t kRecordAlignment = 8;
// Longest text carried by one record; longer NVTX messages and names are truncated.
inline constexpr size_t kMaxTextLength = 2048;

enum class RecordKind : uint16_t {
  // Process and stream bookkeeping: 1..15.
  kStreamHello = 1,
  kThreadName = 2,
  kDroppedRecords = 3,
  kProcessExit = 4,
  kProcessRank = 5,
  kRingSegment = 6,
  kDrainRequest = 7,
  kTornRecords = 8,
  kProcessKilled = 9,
  kRecordsWithoutRing = 10,
  kNvtxRangesTooDeep = 11,
  // OS runtime: 16..31.
  kOsrtCall = 16,
  // NVTX: 32..63.
  kNvtxDomainCreate = 32,
  kNvtxDomainDestroy = 33,
  kNvtxStringRegister = 34,
  kNvtxCategoryName = 35,
  // 36, 37: push and pop, before a push/pop range became one record (kNvtxPushPopRange).
  kNvtxRangeStart = 38,
  kNvtxRangeEnd = 39,
  kNvtxMark = 40,
  kNvtxLibraryDomain = 41,
  kNvtxPushPopRange = 42,
  // As kNvtxPushPopRange, with timestamp_ns and end_ns in CPU counter ticks
  // (InjectionSettings::nvtx_counter_time); the launcher converts it into a kNvtxPushPopRange
  // before anything else reads it (collector/counter_time_sink.h).
  kNvtxPushPopRangeTicks = 43,
  // CUDA (CUPTI): 64..127, structs in cuda_records.h.
  kCudaInitStatus = 64,
  kCudaApiName = 65,
  kCudaApiCall = 66,
  kCudaString = 67,
  kCudaKernel = 68,
  kCudaMemcpy = 69,
  kCudaMemset = 70,
  kCudaSync = 71,
  kCudaGraphTrace = 72,
  kCudaGraphLaunch = 73,
  kCudaDevice = 74,
  kCudaContext = 75,
  kCudaStream = 76,
  kCudaEvent = 77,
  kCudaDroppedRecords = 78,
  kCudaGraphEvent = 79,
  kCudaMemory = 80,
  kCudaPythonStack = 81,
  kCudaApiCallWithStack = 82,
  // CPU sampling: 128..143, structs in sample_records.h.
  kCpuSample = 128,
};

struct RecordHeader {
  RecordKind kind;
  uint16_t size;  // whole record in bytes, multiple of kRecordAlignment
  uint32_t tid;
  uint64_t timestamp_ns;
};
static_assert(sizeof(RecordHeader) == 16);

constexpr size_t AlignedRecordSize(size_t unaligned) {
  return (unaligned + kRecordAlignment - 1) & ~(kRecordAlignment - 1);
}

// First record of every connection. timestamp_ns: when the process's tracing started.
struct StreamHello {
  RecordHeader header;
  uint32_t magic;
  uint16_t version;
  uint16_t flags;  // kHello* bits
  uint32_t pid;
  uint32_t parent_pid;
  uint32_t text_length;  // process name (the executable's basename, as /proc/<pid>/comm)
  uint32_t reserved2;
};
static_assert(sizeof(StreamHello) == 40);
// The process takes its own CPU samples from the hello's time on (injection/core/timer_sampler.h):
// the kernel's samples of it are not written (collector/cpu_samples/self_sampled_processes.h).
inline constexpr uint16_t kHelloSamplesItself = 1;

// A thread got a name (pthread_setname_np, prctl(PR_SET_NAME), nvtxNameOsThread) or was first seen.
struct ThreadNameRecord {
  RecordHeader header;
  uint32_t named_tid;  // the thread being named (may differ from header.tid)
  uint32_t text_length;
};
static_assert(sizeof(ThreadNameRecord) == 24);

// Made by the launcher from a ring's drop counter: records the injected code had to drop (ring
// full, or emitted by a signal handler inside its own thread's Emit) since the last
// DroppedRecordsRecord of this process.
struct DroppedRecordsRecord {
  RecordHeader header;
  uint64_t dropped;
};
static_assert(sizeof(DroppedRecordsRecord) == 24);

// Made by the launcher from the first segment's dropped_without_ring counter, in the layout of
// DroppedRecordsRecord: records lost because their thread could get no ring (1,024 threads
// recording at once, or no shared memory for a new segment), since the last such record.
using RecordsWithoutRingRecord = DroppedRecordsRecord;

// Made by the launcher from a ring's too_deep counter, in the layout of DroppedRecordsRecord:
// push/pop ranges dropped because they were nested deeper than their thread's open ranges hold,
// since the last such record of that ring.
using NvtxRangesTooDeepRecord = DroppedRecordsRecord;

// Sent on the socket: the System V shared memory segment `segment_id` holds `ring_count` thread
// rings the launcher attaches and drains. Consumed by the launcher's reader, except when there is
// no segment: a negative `segment_id` is -errno of the call that failed (in the process, or the
// launcher's refusal, -EPERM), and the record goes on to the trackers, which say the process's
// threads are not traced.
struct RingSegmentRecord {
  RecordHeader header;
  int32_t segment_id;
  uint32_t ring_count;
};
static_assert(sizeof(RingSegmentRecord) == 24);

// Sent on the socket by a thread whose ring is half full or that waits for room: drain the
// process's rings now rather than at the next periodic pass. Consumed by the launcher's reader.
struct DrainRequestRecord {
  RecordHeader header;
};
static_assert(sizeof(DrainRequestRecord) == 16);

// Made by the launcher once a process is gone: records its threads had begun writing and never
// published, cut by the process's death (a fatal signal, SIGKILL, _exit from another thread).
struct TornRecordsRecord {
  RecordHeader header;
  uint64_t torn;
};
static_assert(sizeof(TornRecordsRecord) == 24);

// The process is about to exit normally (exit() or return from main); nothing follows it.
struct ProcessExitRecord {
  RecordHeader header;
  int64_t exit_status;
};
static_assert(sizeof(ProcessExitRecord) == 24);

// A signal killed process `pid`. Sent by its parent's libprof_core when it reaps the process
// (waitpid and its kin: injection/core/child_status.cpp), and made by the launcher in the process's
// own stream when that ended without its exit record and the kernel still held its status.
struct ProcessKilledRecord {
  RecordHeader header;
  uint32_t pid;
  int32_t signal;        // the signal that killed it
  uint32_t core_dumped;  // 1: it dumped core
  uint32_t reserved;
};
static_assert(sizeof(ProcessKilledRecord) == 32);

// The process's rank in a distributed job (torchrun, mpirun, srun), sent right after the hello when
// its environment names one: the first of kRankVariables that holds a decimal number.
struct ProcessRankRecord {
  RecordHeader header;
  int64_t rank;
};
static_assert(sizeof(ProcessRankRecord) == 24);
inline constexpr const char* kRankVariables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                                 "PMIX_RANK", "SLURM_PROCID"};

// One OS runtime call that lasted at least the threshold. header.timestamp_ns is its start.
// With --osrt-backtrace-threshold, a call that lasted that long is followed in the same record by
// the stack it was made from: `native_frame_count` return addresses (uint64, innermost first: the
// first is the call site of the traced function), then `python_frame_count` Python frames of the
// thread, innermost first, each two uint64: the code object's address and its instruction (an
// address in CPython 3.11+, f_lasti in 3.10), which the launcher names by reading the code object.
struct OsrtCallRecord {
  RecordHeader header;
  uint64_t end_ns;
  int64_t return_value;
  uint16_t function_id;  // index into injection/osrt's function table (osrt_functions.h)
  uint8_t nesting_level;
  uint8_t native_frame_count;
  uint8_t python_frame_count;
  uint8_t reserved[3];
};
static_assert(sizeof(OsrtCallRecord) == 40);
inline constexpr size_t kMaxOsrtBacktraceDepth = 64;  // native frames, and Python frames
inline constexpr size_t kOsrtPythonFrameBytes = 2 * sizeof(uint64_t);
static_assert(kMaxOsrtBacktraceDepth * (sizeof(uint64_t) + kOsrtPythonFrameBytes) <=
              kMaxTextLength);
// Whether `call`'s size is what its frame counts say, within the depth limit: the launcher's
// readers skip (and the collector counts as malformed) any other.
inline bool OsrtCallFramed(const OsrtCallRecord& call) {
  return call.native_frame_count <= kMaxOsrtBacktraceDepth &&
         call.python_frame_count <= kMaxOsrtBacktraceDepth &&
         call.header.size == sizeof(OsrtCallRecord) + call.native_frame_count * sizeof(uint64_t) +
                                 call.python_frame_count * kOsrtPythonFrameBytes;
}

// How an NVTX message reached the tool; registered strings arrive as kNvtxStringRegister first.
enum class NvtxMessageKind : uint8_t { kNone = 0, kText = 1, kRegistered = 2 };
// NVTX payload types, numbered as nvtxPayloadType_t.
enum class NvtxPayloadKind : uint8_t {
  kNone = 0,
  kUnsignedInt64 = 1,
  kInt64 = 2,
  kDouble = 3,
  kUnsignedInt32 = 4,
  kInt32 = 5,
  kFloat = 6,
  kJsonRegistered = 7,
};

// nvtxDomainCreate / nvtxDomainDestroy: domain_id is the id of the handle prof returned (1, 2, ...
// per process; 0 = the default domain). A fork child repeats the create record of an inherited
// domain before its first use of it.
struct NvtxDomainRecord {
  RecordHeader header;
  uint64_t domain_id;
  uint32_t text_length;  // domain name (create) or 0 (destroy)
  uint32_t reserved;
};
static_assert(sizeof(NvtxDomainRecord) == 32);

// NVIDIA libraries that annotate their own API calls with NVTX ranges in a domain of their own once
// their *_NVTX_LEVEL variable is set (prof sets it for --trace=cublas,cudnn).
enum class NvtxLibrary : uint32_t { kNone = 0, kCublas = 1, kCudnn = 2 };

// Sent instead of kNvtxDomainCreate for the domain of a traced library: the domain's push/pop
// ranges are that library's API calls (CUBLAS_EVENTS, CUDNN_EVENTS), not NVTX_EVENTS rows.
struct NvtxLibraryDomainRecord {
  RecordHeader header;
  uint64_t domain_id;
  NvtxLibrary library;
  uint32_t reserved;
};
static_assert(sizeof(NvtxLibraryDomainRecord) == 32);

// nvtxDomainRegisterString: string_id is the id of the handle prof returned, unique within the
// process.
struct NvtxStringRecord {
  RecordHeader header;
  uint64_t domain_id;
  uint64_t string_id;
  uint32_t text_length;
  uint32_t reserved;
};
static_assert(sizeof(NvtxStringRecord) == 40);

// nvtxNameCategory / nvtxDomainNameCategory.
struct NvtxCategoryRecord {
  RecordHeader header;
  uint64_t domain_id;
  uint32_t category;
  uint32_t text_length;
};
static_assert(sizeof(NvtxCategoryRecord) == 32);

// How a push/pop range (kNvtxPushPopRange) ended.
enum class NvtxRangeEnding : uint8_t {
  kPopped = 0,       // end_ns is its pop
  kOpenAtExit = 1,   // never popped: its process exited normally with it open (end_ns 0)
  kOpenAtDeath = 2,  // never popped: its process died with it open; end_ns is when the launcher
                     // saw the death
};

// Push/pop range, range start and mark: the event attributes the program passed, and
// header.timestamp_ns is when the call happened (a range's push or start). A registered message
// carries the registered string's text too, so the collector never waits for the (other
// thread's) register record.
//
// A push/pop range is one record, emitted whole when it is popped: kept or dropped as a whole,
// never mispaired. While it is open it waits, whole, in its thread's ring memory (ThreadRing's
// open ranges, with `level` in the union), from where the launcher takes it if the process ends
// first.
struct NvtxEventRecord {
  RecordHeader header;
  uint64_t domain_id;
  union {
    uint64_t range_id;  // range start: the id returned; mark: 0
    uint64_t end_ns;    // push/pop range: its pop (see `ending`)
    uint64_t level;     // push/pop range while open: the 0-based level the push returned
  };
  uint64_t registered_string_id;  // message_kind == kRegistered
  uint64_t payload_bits;          // payload bits, zero-extended from payload_kind's width
  uint32_t category;
  uint32_t color;  // ARGB, valid when has_color
  uint8_t has_color;
  NvtxMessageKind message_kind;
  NvtxPayloadKind payload_kind;
  NvtxRangeEnding ending;  // push/pop range only
  uint32_t text_length;    // message_kind kText or kRegistered
};
static_assert(sizeof(NvtxEventRecord) == 64);

// What a push says of its range besides its time, domain, level and text: the NvtxEventRecord
// fields of the same names. The NVTX tracer hands these to libprof_core, which writes the range's
// record in place in the open ranges (a record built elsewhere and copied in made the copy wait
// for the stores that built it).
struct NvtxRangeAttributes {
  uint64_t registered_string_id = 0;
  uint64_t payload_bits = 0;
  uint32_t category = 0;
  uint32_t color = 0;
  uint8_t has_color = 0;
  NvtxMessageKind message_kind = NvtxMessageKind::kNone;
  NvtxPayloadKind payload_kind = NvtxPayloadKind::kNone;
};

// Range end (range_id as returned by the start).
struct NvtxRangeEndRecord {
  RecordHeader header;
  uint64_t domain_id;
  uint64_t range_id;
};
static_assert(sizeof(NvtxRangeEndRecord) == 32);

}  // namespace prof::protocol
