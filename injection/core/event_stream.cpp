// The process-wide event stream: settings, connection, the flusher thread and the Emit* entry
// points.
//
// Lifecycle: Start() runs from the library constructor (process start, before main), Stop() from
// the library destructor (exit() or return from main). A fork child restarts the stream with its
// own connection from the pthread_atfork child handler.
//
// Back-pressure policy: a producer whose ring is full wakes the flusher and waits up to
// kProducerWaitLimitNs; if the ring is still full the record is dropped and counted, and the thread
// drops further records without waiting until its ring is half empty again, so a stalled launcher
// costs the program at most one bounded wait per overflow episode.
#include "injection/core/event_stream.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/signals_blocked.h"
#include "injection/core/capture_gate.h"
#include "injection/core/stream_connection.h"
#include "injection/core/thread_buffer.h"

namespace prof::injection {
namespace {

constexpr uint64_t kProducerWaitLimitNs = 1'000'000;
constexpr uint64_t kPatientWaitLimitNs = 2'000'000'000;  // the socket's send timeout
// A waiting producer sleeps between looks at its ring instead of spinning: on a machine with few
// cores a spinning program takes the CPU the launcher needs to drain the rings it waits for.
constexpr long kSpaceCheckIntervalNs = 50'000;
constexpr int kFlushIntervalMs = 20;
constexpr size_t kSendBatchBytes = 256 * 1024;

protocol::InjectionSettings g_settings;
std::atomic<bool> g_enabled{false};
StreamConnection g_connection;
// Bumped by producers whose ring fills up, and waited on by the flusher as a futex: a descriptor
// (an eventfd) could be closed by the program and its number given to one of the program's files,
// which the flusher would then read from and the producers write to.
std::atomic<uint32_t> g_wake_count{0};
pthread_t g_flusher;
std::atomic<bool> g_flusher_running{false};
// Set by the flusher thread as its first step (see BeforeFork).
std::atomic<bool> g_flusher_started{false};
// The process whose stream this is: a child made without fork handlers (clone, _Fork) has no
// flusher and shares the parent's connection, so it must leave both alone at exit.
pid_t g_stream_pid = 0;
std::atomic<bool> g_stop_requested{false};
// Serialises draining and sending between the flusher and the exit path.
pthread_mutex_t g_drain_mutex = PTHREAD_MUTEX_INITIALIZER;
pthread_key_t g_thread_exit_key;
char g_send_batch[kSendBatchBytes];

thread_local ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec"))) = nullptr;
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

void WakeFlusher() {
  g_wake_count.fetch_add(1, std::memory_order_release);
  syscall(SYS_futex, &g_wake_count, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

// Sleeps until WakeFlusher() runs or kFlushIntervalMs pass; returns at once when it ran since
// `seen` was read.
void WaitForWake(uint32_t seen) {
  const timespec interval{0, kFlushIntervalMs * 1'000'000L};
  syscall(SYS_futex, &g_wake_count, FUTEX_WAIT_PRIVATE, seen, &interval, nullptr, 0);
}

// Appends the count of records dropped in `buffer` since the last report to the batch.
size_t AppendDroppedReport(ThreadBuffer* buffer, char* out) {
  const uint64_t dropped = buffer->dropped.load(std::memory_order_relaxed);
  if (dropped == buffer->dropped_reported) return 0;
  protocol::DroppedRecordsRecord record{};
  record.header = {protocol::RecordKind::kDroppedRecords, sizeof(record), buffer->owner_tid,
                   MonotonicNowNs()};
  record.dropped = dropped - buffer->dropped_reported;
  buffer->dropped_reported = dropped;
  std::memcpy(out, &record, sizeof(record));
  return sizeof(record);
}

// Sends everything published so far. Caller holds g_drain_mutex.
void DrainAllLocked() {
  for (ThreadBuffer* buffer = FirstThreadBuffer(); buffer != nullptr; buffer = buffer->next) {
    const ThreadBuffer::State state = buffer->state.load(std::memory_order_acquire);
    if (state == ThreadBuffer::State::kFree || state == ThreadBuffer::State::kClaimed) continue;
    size_t used = AppendDroppedReport(buffer, g_send_batch);
    // Only what was published when the pass began: a thread that keeps emitting must not hold the
    // flusher on its ring while the other rings fill up (or while exit waits for the flusher).
    size_t budget = buffer->UsedBytes();
    size_t drained = 0;
    do {
      drained = buffer->Drain(g_send_batch + used, kSendBatchBytes - used);
      used += drained;
      budget -= drained < budget ? drained : budget;
      if (used > 0 && !g_connection.SendAll(g_send_batch, used)) g_enabled.store(false);
      used = 0;
      // The budget may overstate what was published (UsedBytes() during a rewind): stop when empty.
    } while (budget > 0 && drained > 0 && g_connection.connected());
    // A retired buffer is drained for the last time: hand it to the next new thread.
    if (state == ThreadBuffer::State::kRetired) {
      buffer->state.store(ThreadBuffer::State::kFree, std::memory_order_release);
    }
  }
}

void* FlusherMain(void*) {
  g_flusher_started.store(true, std::memory_order_release);
  ++t_internal_depth;  // this thread's own calls are never traced
  syscall(SYS_prctl, PR_SET_NAME, "prof-flusher", 0, 0, 0);
  // Every signal blocked: a program that blocks signals in all of its threads to take them with
  // sigwait() or a signalfd must not have them delivered to (and kill it from) prof's thread.
  // Blocked here rather than around pthread_create: that way, in a fork child under GCC 12's
  // ASan, the child's flusher hung (or its records were lost) 3 times in 16 instead of 1.
  BlockAsynchronousSignals(nullptr);
  uint32_t seen = g_wake_count.load(std::memory_order_acquire);
  while (!g_stop_requested.load(std::memory_order_acquire)) {
    WaitForWake(seen);
    // Read before draining: a wake-up that comes while the rings are drained ends the next wait.
    seen = g_wake_count.load(std::memory_order_acquire);
    pthread_mutex_lock(&g_drain_mutex);
    if (g_connection.connected()) DrainAllLocked();
    pthread_mutex_unlock(&g_drain_mutex);
  }
  return nullptr;
}

void OnThreadExit(void* buffer) {
  // Detach first: a signal handler emitting after this point gets a fresh buffer instead of
  // appending to one the flusher may already be handing to another thread.
  t_buffer = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  static_cast<ThreadBuffer*>(buffer)->state.store(ThreadBuffer::State::kRetired,
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
  message.hello.pid = static_cast<uint32_t>(getpid());
  message.hello.parent_pid = static_cast<uint32_t>(getppid());
  message.hello.text_length = static_cast<uint32_t>(name_length);
  g_connection.SendAll(reinterpret_cast<const char*>(&message), message.hello.header.size);
  SendRank();
}

// Connects and starts the flusher; leaves the stream disabled when anything fails.
void StartStream() {
  if (!g_connection.Connect(g_settings.socket_path)) return;
  SendHello();
  g_stop_requested.store(false);
  g_stream_pid = getpid();
  g_enabled.store(g_connection.connected(), std::memory_order_release);
  g_flusher_started.store(false);
  if (pthread_create(&g_flusher, nullptr, FlusherMain, nullptr) == 0) {
    g_flusher_running.store(true);
  }
}

// prof's own mutex: kept out of the OS-runtime trace of the program's fork().
void BeforeFork() {
  ScopedInternalCall internal;
  // A program that forks at once (a launcher script, a test) can fork while the flusher thread is
  // still starting. glibc's fork makes that safe, but a sanitizer's runtime that allocates in a new
  // thread's start-up without locking around fork (GCC 12's ASan) leaves the child's allocator
  // locked for good. So a fork waits for the flusher to have started: microseconds, once.
  const timespec interval{0, 50'000};
  for (int waited = 0; g_flusher_running.load() &&
                       !g_flusher_started.load(std::memory_order_acquire) && waited < 20'000;
       ++waited) {
    syscall(SYS_nanosleep, &interval, nullptr);  // at most 1 s: the thread exists, it will start
  }
  pthread_mutex_lock(&g_drain_mutex);
}
void AfterForkInParent() {
  ScopedInternalCall internal;
  pthread_mutex_unlock(&g_drain_mutex);
}

// The child keeps only the forking thread: drop the parent's connection and buffered records (they
// are the parent's to send), then stream on a connection of its own.
void AfterForkInChild() {
  ScopedInternalCall internal;
  pthread_mutex_init(&g_drain_mutex, nullptr);
  g_enabled.store(false);
  g_flusher_running.store(false);
  g_connection.Abandon();
  t_tid = 0;
  // Every buffer is the parent's; the child's thread takes a fresh one at its next event, which
  // also names the thread in the child's stream.
  for (ThreadBuffer* buffer = FirstThreadBuffer(); buffer != nullptr; buffer = buffer->next) {
    buffer->Reset();
    buffer->state.store(ThreadBuffer::State::kFree);
  }
  t_buffer = nullptr;
  StartStream();
}

// `first_timestamp`: the time of the record being emitted, so that the thread's first-seen name
// never looks newer than a name the same record sets (nvtxNameOsThread, pthread_setname_np).
ThreadBuffer* BufferOfThisThread(uint64_t first_timestamp) {
  if (t_buffer != nullptr) return t_buffer;
  t_buffer = AcquireThreadBuffer(CurrentTid());
  if (t_buffer == nullptr) return nullptr;
  pthread_setspecific(g_thread_exit_key, t_buffer);
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
  t_buffer->TryAppend(&record, sizeof(record), name, record.text_length);
  return t_buffer;
}

// Bounded wait for ring space (see the back-pressure policy at the top of this file).
bool WaitForSpace(ThreadBuffer* buffer, const void* first, size_t first_size, const void* second,
                  size_t second_size) {
  const bool patient = t_patient_depth > 0;
  if (buffer->dropping && !patient) {
    if (buffer->UsedBytes() > ThreadBuffer::kCapacity / 2) return false;
    buffer->dropping = false;
    return buffer->TryAppend(first, first_size, second, second_size);
  }
  WakeFlusher();
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

void Emit(protocol::RecordHeader* record, size_t fixed_size, const char* text, size_t text_length) {
  if (!g_enabled.load(std::memory_order_acquire) || t_internal_depth > 0) return;
  if (!CaptureAllows(record->kind)) return;  // outside every capture window
  if (t_inside_emit) {
    // A signal handler interrupted this thread's own Emit: appending now would corrupt the ring.
    if (t_buffer != nullptr) t_buffer->dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const int saved_errno = errno;
  t_inside_emit = true;
  ThreadBuffer* buffer = BufferOfThisThread(record->timestamp_ns);
  if (buffer != nullptr) {
    record->tid = CurrentTid();
    record->size = static_cast<uint16_t>(protocol::AlignedRecordSize(fixed_size + text_length));
    constexpr size_t kHalf = ThreadBuffer::kCapacity / 2;
    const bool was_below_half = buffer->UsedBytes() <= kHalf;
    if (!buffer->TryAppend(record, fixed_size, text, text_length) &&
        !WaitForSpace(buffer, record, fixed_size, text, text_length)) {
      buffer->dropped.fetch_add(1, std::memory_order_relaxed);
    } else if (was_below_half && buffer->UsedBytes() > kHalf) {
      WakeFlusher();  // once per crossing, not once per record
    }
  }
  t_inside_emit = false;
  errno = saved_errno;
}

__attribute__((constructor)) void StartAtLoad() {
  ScopedInternalCall internal;
  if (!protocol::DecodeSettings(getenv(protocol::kSettingsEnvVar), &g_settings)) return;
  pthread_key_create(&g_thread_exit_key, OnThreadExit);
  pthread_atfork(BeforeFork, AfterForkInParent, AfterForkInChild);
  MapCapturePage(g_settings.socket_path);
  StartStream();
}

__attribute__((destructor)) void StopAtExit() {
  if (!g_enabled.load() || getpid() != g_stream_pid) return;
  ScopedInternalCall internal;
  // Stop emitting and the flusher first, so that the final drain below is the last writer of the
  // connection and sees every ring's final content.
  g_enabled.store(false, std::memory_order_release);
  g_stop_requested.store(true, std::memory_order_release);
  WakeFlusher();
  if (g_flusher_running.exchange(false)) pthread_join(g_flusher, nullptr);
  pthread_mutex_lock(&g_drain_mutex);
  DrainAllLocked();
  protocol::ProcessExitRecord exit_record{};
  exit_record.header = {protocol::RecordKind::kProcessExit, sizeof(exit_record), CurrentTid(),
                        MonotonicNowNs()};
  g_connection.SendAll(reinterpret_cast<const char*>(&exit_record), sizeof(exit_record));
  g_connection.Close();
  pthread_mutex_unlock(&g_drain_mutex);
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

bool InsideInternalCall() { return t_internal_depth > 0; }

ScopedPatientEmit::ScopedPatientEmit() { ++t_patient_depth; }
ScopedPatientEmit::~ScopedPatientEmit() { --t_patient_depth; }

ScopedInternalCall::ScopedInternalCall() { ++t_internal_depth; }
ScopedInternalCall::~ScopedInternalCall() { --t_internal_depth; }

}  // namespace prof::injection
