// The process-wide event stream: settings, connection, the thread rings and the Emit* entry
// points.
//
// Lifecycle: Start() runs from the library constructor (process start, before main), Stop() from
// the library destructor (exit() or return from main). A fork child restarts the stream with its
// own connection and rings from the pthread_atfork child handler.
//
// No thread of prof's runs in the program: each thread writes its records into its own ring in
// shared memory, which the launcher drains on its side, periodically and when a thread asks (a
// drain request on the socket). So what a thread published is the launcher's even if the process
// dies the next instant.
//
// Back-pressure policy: a producer whose ring is full asks for a drain and waits up to
// kProducerWaitLimitNs; if the ring is still full the record is dropped and counted, and the thread
// drops further records without waiting until its ring is half empty again, so a stalled launcher
// costs the program at most one bounded wait per overflow episode.
#include "injection/core/event_stream.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "injection/core/capture_gate.h"
#include "injection/core/errno_kept.h"
#include "injection/core/ring_pool.h"
#include "injection/core/static_program.h"
#include "injection/core/stream_connection.h"
#include "injection/core/timer_sampler.h"
#include "injection/python/own_memory.h"
#include "injection/python/python_interpreter.h"

namespace prof::injection {
namespace {

using protocol::ThreadRing;

constexpr uint64_t kProducerWaitLimitNs = 1'000'000;
constexpr uint64_t kPatientWaitLimitNs = 2'000'000'000;
// A waiting producer sleeps between looks at its ring instead of spinning: on a machine with few
// cores a spinning program takes the CPU the launcher needs to drain the ring it waits for.
constexpr long kSpaceCheckIntervalNs = 50'000;

protocol::InjectionSettings g_settings;
std::atomic<bool> g_enabled{false};
StreamConnection g_connection;
// The process whose stream this is: a child made without fork handlers (clone, _Fork) shares the
// parent's connection and rings, so it must leave both alone at exit.
pid_t g_stream_pid = 0;
pthread_key_t g_thread_exit_key;

thread_local ThreadRing* t_ring __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local uint32_t t_tid __attribute__((tls_model("initial-exec"))) = 0;
thread_local int t_internal_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local bool t_inside_emit __attribute__((tls_model("initial-exec"))) = false;
thread_local int t_patient_depth __attribute__((tls_model("initial-exec"))) = 0;

uint32_t ReadTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

// Reads /proc/self/comm without libc's stdio (may be interposed); strips the newline.
size_t ReadProcessName(char* out, size_t capacity) {
  const int fd =
      static_cast<int>(syscall(SYS_openat, AT_FDCWD, "/proc/self/comm", O_RDONLY | O_CLOEXEC));
  if (fd < 0) return 0;
  const long n = syscall(SYS_read, fd, out, capacity);
  syscall(SYS_close, fd);
  size_t length = n > 0 ? static_cast<size_t>(n) : 0;
  while (length > 0 && (out[length - 1] == '\n' || out[length - 1] == '\0')) --length;
  return length;
}

// Asks the launcher to drain this process's rings now. Never waits: when the socket is full (the
// launcher is behind anyway) or gone, the launcher's periodic pass drains them. Out of line, as
// every path below that is not a record's usual one: the entry points inline everything else.
__attribute__((noinline)) void RequestDrain() {
  const ErrnoKept errno_kept;
  protocol::DrainRequestRecord request{};
  request.header = {protocol::RecordKind::kDrainRequest, sizeof(request), CurrentTid(),
                    MonotonicNowNs()};
  g_connection.TrySend(reinterpret_cast<const char*>(&request), sizeof(request));
}

bool AnnounceSegment(int segment_id, uint32_t ring_count) {
  protocol::RingSegmentRecord record{};
  record.header = {protocol::RecordKind::kRingSegment, sizeof(record), CurrentTid(),
                   MonotonicNowNs()};
  record.segment_id = segment_id;
  record.ring_count = ring_count;
  return g_connection.SendAll(reinterpret_cast<const char*>(&record), sizeof(record));
}

void ReleaseWaitingSample();

void OnThreadExit(void* buffer) {
  ReleaseWaitingSample();
  // Detach first: a signal handler emitting after this point gets a fresh ring instead of
  // appending to one the launcher may already be handing to another thread.
  t_ring = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  static_cast<ThreadRing*>(buffer)->state.store(ThreadRing::State::kRetired,
                                                std::memory_order_release);
}

// The rank the launcher of a distributed job gave this process, if any (ProcessRankRecord).
void SendRank() {
  for (const char* variable : protocol::kRankVariables) {
    const char* text = getenv(variable);
    uint64_t rank = 0;
    if (text == nullptr || !protocol::ParseDecimal(text, &rank)) continue;
    protocol::ProcessRankRecord record{};
    record.header = {protocol::RecordKind::kProcessRank, sizeof(record), CurrentTid(),
                     MonotonicNowNs()};
    record.rank = static_cast<int64_t>(rank);
    g_connection.SendAll(reinterpret_cast<const char*>(&record), sizeof(record));
    return;
  }
}

// Who samples this process's CPU stacks in it: every process when the kernel's sampling was
// refused (timer_sampling_hz); else a process that runs a CPython prof can read, when Python
// frames are asked for (python_sampling_hz), so that they are read at each sample's instant.
struct OwnSampling {
  uint32_t hz = 0;  // 0: the process takes no samples of itself
  bool python_frames = false;
};

// Normal context (constructor): FindInterpreter may search, here and never in the handler.
OwnSampling ChooseOwnSampling(const protocol::InjectionSettings& settings) {
  if (settings.timer_sampling_hz == 0 && settings.python_sampling_hz == 0) return {};
  const bool python = settings.python_sampling_hz != 0 &&
                      python::FindInterpreter(nullptr) == python::InterpreterSupport::kSupported &&
                      python::OwnMemory::Available();
  if (settings.timer_sampling_hz != 0) return {settings.timer_sampling_hz, python};
  return python ? OwnSampling{settings.python_sampling_hz, true} : OwnSampling{};
}

void SendHello() {
  struct {
    protocol::StreamHello hello;
    char name[64];
  } message{};
  const size_t name_length = ReadProcessName(message.name, sizeof(message.name));
  message.hello.header = {protocol::RecordKind::kStreamHello,
                          static_cast<uint16_t>(protocol::AlignedRecordSize(
                              sizeof(protocol::StreamHello) + name_length)),
                          CurrentTid(), MonotonicNowNs()};
  message.hello.magic = protocol::kStreamMagic;
  message.hello.version = protocol::kStreamVersion;
  // Only once the handler is in place: the launcher drops the kernel's samples of the process.
  if (TimerSamplingInstalled()) message.hello.flags = protocol::kHelloSamplesItself;
  message.hello.pid = static_cast<uint32_t>(getpid());
  message.hello.parent_pid = static_cast<uint32_t>(getppid());
  message.hello.text_length = static_cast<uint32_t>(name_length);
  g_connection.SendAll(reinterpret_cast<const char*>(&message), message.hello.header.size);
  SendRank();
}

// Connects and hands the launcher the first ring segment; leaves the stream disabled when
// anything fails.
void StartStream() {
  if (!g_connection.Connect(g_settings.socket_path)) return;
  SendHello();
  if (const int error = StartRingPool(AnnounceSegment); error != 0) {
    // No shared memory for the rings (limits, an IPC namespace): the launcher says so, from a
    // segment record without a segment.
    if (error > 0) AnnounceSegment(-error, 0);
    g_connection.Abandon();
    return;
  }
  g_stream_pid = getpid();
  g_enabled.store(g_connection.connected(), std::memory_order_release);
}

// Between fork's prepare handler and the child handler, the forking thread's ring is still the
// parent's in the child (shared memory): nothing of this thread is traced meanwhile.
void BeforeFork() { ++t_internal_depth; }
void AfterForkInParent() { --t_internal_depth; }

// The child keeps only the forking thread: leave the parent's connection and rings alone (they
// are the parent's, which goes on using them), then stream on a connection and rings of its own.
void AfterForkInChild() {
  g_enabled.store(false);
  g_connection.Abandon();
  t_tid = 0;
  t_ring = nullptr;
  pthread_setspecific(g_thread_exit_key, nullptr);  // the parent's ring is not this thread's
  ForgetInheritedRings();
  StartStream();
  RestartTimerSamplingInChild(g_enabled.load());
  --t_internal_depth;
}

// A thread's first record: takes a ring for it and names the thread there. `first_timestamp`: the
// time of the record being emitted, so that the thread's first-seen name never looks newer than a
// name the same record sets (nvtxNameOsThread, pthread_setname_np).
__attribute__((noinline)) ThreadRing* TakeRingForThisThread(uint64_t first_timestamp) {
  const ErrnoKept errno_kept;
  t_ring = AcquireRing(CurrentTid());
  if (t_ring == nullptr) return nullptr;
  pthread_setspecific(g_thread_exit_key, t_ring);
  // Every thread's first record names it, so ThreadNames lists each thread seen.
  char name[16] = {};
  syscall(SYS_prctl, PR_GET_NAME, name, 0, 0, 0);
  protocol::ThreadNameRecord record{};
  record.header = {protocol::RecordKind::kThreadName, 0, 0, first_timestamp};
  record.named_tid = CurrentTid();
  record.text_length = static_cast<uint32_t>(strnlen(name, sizeof(name)));
  record.header.tid = CurrentTid();
  record.header.size =
      static_cast<uint16_t>(protocol::AlignedRecordSize(sizeof(record) + record.text_length));
  t_ring->TryAppend(&record, sizeof(record), name, record.text_length);
  return t_ring;
}

ThreadRing* RingOfThisThread(uint64_t first_timestamp) {
  return t_ring != nullptr ? t_ring : TakeRingForThisThread(first_timestamp);
}

// Bounded wait for ring space (see the back-pressure policy at the top of this file).
__attribute__((noinline)) bool WaitForSpace(ThreadRing* buffer, const void* first,
                                            size_t first_size, const void* second,
                                            size_t second_size) {
  const bool patient = t_patient_depth > 0;
  if (buffer->dropping && !patient) {
    // Room, not records: a gap the drainer has yet to pass holds none but takes space, and a
    // thread leaving drop mode to find no room would wait again for every other record.
    if (buffer->OccupiedBytes() > ThreadRing::kCapacity / 2) return false;
    buffer->dropping = false;
    return buffer->TryAppend(first, first_size, second, second_size);
  }
  const ErrnoKept errno_kept;
  RequestDrain();
  const uint64_t deadline =
      MonotonicNowNs() + (patient ? kPatientWaitLimitNs : kProducerWaitLimitNs);
  const timespec interval{0, kSpaceCheckIntervalNs};
  while (MonotonicNowNs() < deadline) {
    syscall(SYS_nanosleep, &interval, nullptr);  // raw: the OS-runtime tracer interposes nanosleep
    if (buffer->TryAppend(first, first_size, second, second_size)) return true;
  }
  buffer->dropping = true;
  return false;
}

// After a record of `record_size` bytes was appended to `ring`: asks for a drain once per crossing
// of half full, not once per record. (The record's own bytes: a gap it skipped is not backlog.)
void RequestDrainPastHalf(const ThreadRing* ring, size_t record_size) {
  constexpr size_t kHalf = ThreadRing::kCapacity / 2;
  const size_t used = ring->UsedBytes();
  if (used > kHalf && used - record_size <= kHalf) RequestDrain();
}

// Appends a record to `ring`, waiting for space as the back-pressure policy says; counts it as
// dropped when it cannot. Caller has set t_inside_emit.
void Append(ThreadRing* ring, const void* first, size_t first_size, const void* second,
            size_t second_size) {
  // Marked from before any wait for room: a death while waiting cuts this record.
  ring->BeginWrite();
  if (ring->TryAppend(first, first_size, second, second_size)) {
    RequestDrainPastHalf(ring, protocol::AlignedRecordSize(first_size + second_size));
  } else if (!WaitForSpace(ring, first, first_size, second, second_size)) {
    ring->dropped.fetch_add(1, std::memory_order_relaxed);
    ring->EndWrite();  // a range taken from the open ranges is dropped with it
  }
}

// Counts a record of a signal handler that interrupted this thread's own Emit (appending then
// would corrupt the ring).
void CountDroppedInsideEmit() {
  if (t_ring != nullptr) {
    t_ring->dropped.fetch_add(1, std::memory_order_relaxed);
  } else {
    CountDroppedWithoutRing();
  }
}

// Whether the calling thread may record now (inside_emit: it may, but it is inside its own Emit,
// interrupted by a signal handler; the caller keeps or counts the record).
bool MayEmit(protocol::RecordKind kind, bool* inside_emit) {
  if (!g_enabled.load(std::memory_order_acquire) || t_internal_depth > 0) return false;
  if (!CaptureAllows(kind)) return false;  // outside every capture window
  *inside_emit = t_inside_emit;
  return true;
}

bool MayEmit(protocol::RecordKind kind) {
  bool inside_emit = false;
  if (!MayEmit(kind, &inside_emit)) return false;
  if (inside_emit) CountDroppedInsideEmit();
  return !inside_emit;
}

// A CPU sample whose signal interrupted its thread inside one of the paths below waits here and is
// appended when that path ends, rather than dropped: a thread that records all the time (an NVTX
// flood, a traced call loop) would otherwise lose the samples of exactly those moments. One sample
// waits at most; another in the meantime is dropped and counted.
// The buffer is a page of its own, mapped by the first sample that waits (mmap is a system call,
// so the handler may make it) and unmapped when the thread exits: static TLS this large would make
// libprof_core fail to load where a program dlopens it (NVTX_INJECTION64_PATH without the preload).
struct WaitingSample {
  alignas(8) char bytes[sizeof(protocol::RecordHeader) + 64 + protocol::kMaxTextLength];
};
constexpr size_t kWaitingSampleMapping = 4096;
static_assert(sizeof(WaitingSample) <= kWaitingSampleMapping);
thread_local WaitingSample* t_waiting_sample __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local size_t t_waiting_fixed __attribute__((tls_model("initial-exec"))) = 0;  // 0: none
thread_local size_t t_waiting_text __attribute__((tls_model("initial-exec"))) = 0;
// A signal that stood for several periods emits identical copies (timer_sampler.cpp): they wait as
// one sample and a count.
thread_local size_t t_waiting_copies __attribute__((tls_model("initial-exec"))) = 0;

// In the signal handler, inside Emit: keeps the sample; false when it cannot wait. A sample with a
// stack copy waits without it (and without its registers; the record is changed to say so): the
// copy does not fit the page, and the frame-pointer frames still name the sample.
bool KeepWaiting(protocol::RecordHeader* record, size_t fixed_size, const char* text,
                 size_t text_length) {
  if (record->kind != protocol::RecordKind::kCpuSample) return false;
  auto* sample = reinterpret_cast<protocol::CpuSampleRecord*>(record);
  if (sample->stack_bytes != 0) {
    sample->stack_bytes = 0;
    fixed_size -= protocol::kSampleRegisterCount * sizeof(uint64_t);
    text_length = 0;
  }
  if (fixed_size + text_length > sizeof(WaitingSample::bytes)) return false;
  if (t_waiting_fixed != 0) {
    const bool copy = t_waiting_fixed == fixed_size && t_waiting_text == text_length &&
                      std::memcmp(t_waiting_sample->bytes, record, fixed_size) == 0 &&
                      std::memcmp(t_waiting_sample->bytes + fixed_size, text, text_length) == 0;
    if (copy) ++t_waiting_copies;
    return copy;
  }
  if (t_waiting_sample == nullptr) {
    const ErrnoKept errno_kept;
    void* page = reinterpret_cast<void*>(syscall(SYS_mmap, nullptr, kWaitingSampleMapping,
                                                 PROT_READ | PROT_WRITE,
                                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (page == MAP_FAILED) return false;
    t_waiting_sample = static_cast<WaitingSample*>(page);
  }
  std::memcpy(t_waiting_sample->bytes, record, fixed_size);
  if (text_length != 0) std::memcpy(t_waiting_sample->bytes + fixed_size, text, text_length);
  t_waiting_text = text_length;
  t_waiting_copies = 1;
  std::atomic_signal_fence(std::memory_order_release);
  t_waiting_fixed = fixed_size;
  return true;
}

void Emit(protocol::RecordHeader* record, size_t fixed_size, const char* text, size_t text_length);

// At the thread's exit: its page goes (a sample that still waited is dropped and counted).
void ReleaseWaitingSample() {
  WaitingSample* const page = t_waiting_sample;
  if (page == nullptr) return;
  for (; t_waiting_fixed != 0 && t_waiting_copies > 0; --t_waiting_copies) CountDroppedInsideEmit();
  t_waiting_fixed = 0;
  t_waiting_sample = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  syscall(SYS_munmap, page, kWaitingSampleMapping);
}

// After a path below ended: appends the sample that waited, if one did. Copied out first, so that
// a signal meanwhile may keep the next one.
__attribute__((noinline)) void AppendWaitingSample() {
  WaitingSample sample;
  const size_t fixed = t_waiting_fixed;
  const size_t text = t_waiting_text;
  const size_t copies = t_waiting_copies;
  std::atomic_signal_fence(std::memory_order_acquire);
  std::memcpy(sample.bytes, t_waiting_sample->bytes, fixed + text);
  std::atomic_signal_fence(std::memory_order_release);
  t_waiting_fixed = 0;
  auto* header = reinterpret_cast<protocol::RecordHeader*>(sample.bytes);
  for (size_t i = 0; i < copies; ++i) Emit(header, fixed, sample.bytes + fixed, text);
}

// The entry points below are flattened: one function each, for the cost of a record's path.
__attribute__((flatten)) void Emit(protocol::RecordHeader* record, size_t fixed_size,
                                   const char* text, size_t text_length) {
  bool inside_emit = false;
  if (!MayEmit(record->kind, &inside_emit)) return;
  if (inside_emit) {
    if (!KeepWaiting(record, fixed_size, text, text_length)) CountDroppedInsideEmit();
    return;
  }
  t_inside_emit = true;
  if (ThreadRing* ring = RingOfThisThread(record->timestamp_ns)) {
    record->tid = CurrentTid();
    record->size = static_cast<uint16_t>(protocol::AlignedRecordSize(fixed_size + text_length));
    Append(ring, record, fixed_size, text, text_length);
  }
  t_inside_emit = false;
  if (t_waiting_fixed != 0) AppendWaitingSample();
}

__attribute__((constructor)) void StartAtLoad() {
  // Loaded into a static program (by its NVTX code's dlopen): this library brought a second libc,
  // whose threads and state the program knows nothing of. Stay out entirely.
  if (MainProgramIsStatic()) return;
  ScopedInternalCall internal;
  if (!protocol::DecodeSettings(getenv(protocol::kSettingsEnvVar), &g_settings)) return;
  pthread_key_create(&g_thread_exit_key, OnThreadExit);
  pthread_atfork(BeforeFork, AfterForkInParent, AfterForkInChild);
  MapCapturePage(g_settings.socket_path);
  const OwnSampling own = ChooseOwnSampling(g_settings);
  InstallTimerSampling(own.hz, own.python_frames, g_settings.sample_stack_bytes);
  StartStream();
  if (g_enabled.load()) StartTimerSampling();
}

__attribute__((destructor)) void StopAtExit() {
  if (!g_enabled.load() || getpid() != g_stream_pid) return;
  ScopedInternalCall internal;
  StopTimerSampling();  // no sample follows the exit record
  // The exit record tells the launcher that nothing follows, so it drains the rings at once. The
  // socket stays open: the kernel closes it once the last thread is gone, which tells the launcher
  // that no record can be half written any more.
  g_enabled.store(false, std::memory_order_release);
  MarkRingPoolExiting();
  protocol::ProcessExitRecord exit_record{};
  exit_record.header = {protocol::RecordKind::kProcessExit, sizeof(exit_record), CurrentTid(),
                        MonotonicNowNs()};
  g_connection.SendAll(reinterpret_cast<const char*>(&exit_record), sizeof(exit_record));
}

}  // namespace

const protocol::InjectionSettings& Settings() { return g_settings; }

bool StreamEnabled() { return g_enabled.load(std::memory_order_acquire); }

uint32_t CurrentTid() {
  if (t_tid == 0) t_tid = ReadTid();
  return t_tid;
}

void EmitRecord(protocol::RecordHeader* record, size_t fixed_size) {
  Emit(record, fixed_size, nullptr, 0);
}

void EmitRecordWithText(protocol::RecordHeader* record, size_t fixed_size, const char* text,
                        size_t text_length) {
  Emit(record, fixed_size, text, ClampTextLength(text_length));
}

void EmitCpuSample(protocol::CpuSampleRecord* sample, size_t fixed_size, const void* stack,
                   size_t stack_bytes) {
  Emit(&sample->header, fixed_size, static_cast<const char*>(stack), stack_bytes);
}

__attribute__((flatten)) void OpenPushPopRange(protocol::RecordKind kind, uint64_t start,
                                               uint64_t domain_id, uint64_t level,
                                               const protocol::NvtxRangeAttributes& attributes,
                                               const char* text, size_t text_length) {
  text_length = ClampTextLength(text_length);
  if (!MayEmit(kind)) return;
  t_inside_emit = true;
  ThreadRing* ring = t_ring;
  if (ring == nullptr) {
    // The thread's first-seen name takes a CLOCK_MONOTONIC time, also when the range is in ticks.
    ring = RingOfThisThread(kind == protocol::RecordKind::kNvtxPushPopRange ? start
                                                                            : MonotonicNowNs());
  }
  if (ring != nullptr && !ring->OpenRange({kind, CurrentTid(), start, domain_id, level}, attributes,
                                          text, text_length)) {
    ring->too_deep.fetch_add(1, std::memory_order_relaxed);  // nested beyond the ranges' memory
  }
  t_inside_emit = false;
  if (t_waiting_fixed != 0) AppendWaitingSample();
}

__attribute__((flatten)) void ClosePushPopRange(uint64_t domain_id, uint64_t level,
                                                uint64_t end_ns) {
  // No capture check: the range was judged at its push. A pop inside a signal handler that
  // interrupted this thread's Emit belongs to a push of that handler, already dropped.
  if (!g_enabled.load(std::memory_order_acquire) || t_internal_depth > 0 || t_inside_emit ||
      t_ring == nullptr) {
    return;
  }
  t_inside_emit = true;
  ThreadRing* ring = t_ring;
  const ThreadRing::ClosedRange range = ring->CloseRange(domain_id, level);
  if (range.bytes != nullptr) {
    if (ring->AppendClosedRange(range, end_ns)) {
      RequestDrainPastHalf(ring, range.size);
    } else {
      ring->EndInPlace(range, end_ns);  // no room now: Append waits, or drops and counts it
      Append(ring, range.bytes, range.size, nullptr, 0);
    }
    ring->EndClose(range);
  }
  t_inside_emit = false;
  if (t_waiting_fixed != 0) AppendWaitingSample();
}

bool InsideInternalCall() { return t_internal_depth > 0; }

ScopedPatientEmit::ScopedPatientEmit() { ++t_patient_depth; }
ScopedPatientEmit::~ScopedPatientEmit() { --t_patient_depth; }

ScopedInternalCall::ScopedInternalCall() { ++t_internal_depth; }
ScopedInternalCall::~ScopedInternalCall() { --t_internal_depth; }

}  // namespace prof::injection
