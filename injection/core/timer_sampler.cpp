// The fallback CPU sampler (timer_sampler.h): per-thread CPU-time timers, a real-time signal and
// a frame-pointer walk in its handler.
//
// Async-signal safety: the handler (OnSampleSignal) reads only initial-exec thread-locals, its
// ucontext and the interrupted thread's own stack (frame_walk.h), and CPython's frames and the
// stack copy only through process_vm_readv (injection/python/own_memory.h: a frame being freed
// reads as gone, never as a fault); it makes no call that allocates or locks, keeps errno, and
// emits through EmitCpuSample, which is async-signal-safe (a sample that interrupted its thread's
// own Emit waits until that Emit ends: event_stream.cpp).
#include "injection/core/timer_sampler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

#include "injection/core/errno_kept.h"
#include "injection/core/event_stream.h"
#include "injection/core/frame_walk.h"
#include "injection/core/sampling_signal.h"
#include "injection/protocol/sample_records.h"
#include "injection/python/own_memory.h"
#include "injection/python/python_interpreter.h"

namespace prof::injection {
namespace {

// Candidates for the sampling signal, as offsets below SIGRTMAX: high enough to stay clear of
// glibc's own (SIGRTMIN-2, SIGRTMIN-1) and of the low SIGRTMIN+n that programs tend to use. The
// first whose disposition is still SIG_DFL at start is taken; when the program handles all of
// them, nothing is sampled.
constexpr int kSignalOffsets[] = {7, 6, 5, 4};

// A tick can deliver one signal for several periods of CPU time (the kernel checks CPU-time timers
// at its scheduler tick, CONFIG_HZ, so a period shorter than a tick expires several times between
// two checks: si_overrun counts the extra ones). The sample stands for each period (its
// `periods`), so that counts stay CPU time x rate, up to this many per signal (a signal delayed for
// long, e.g. while the program blocked it, does not turn into thousands of samples).
constexpr int kMaxCopiesPerSignal = 16;

// prof's timers mark their signals with this value (si_value, from sigev_value): a timer the
// program made itself on the same signal also sends SI_TIMER, and its signals are the program's.
constexpr int kTimerMark = 0x70726f66;  // "prof"

int g_signal = 0;              // 0: sampling is off (never started, or no free signal)
bool g_python_frames = false;  // samples carry the thread's Python frames
uint32_t g_stack_bytes = 0;    // samples carry registers and this much of the stack (0: none)
uint64_t g_period_ns = 0;
std::atomic<bool> g_sampling{false};  // samples are emitted (cleared at exit)
pthread_key_t g_timer_key;            // its destructor deletes an exiting thread's timer

thread_local int t_timer_id __attribute__((tls_model("initial-exec"))) = -1;
thread_local uintptr_t t_stack_low __attribute__((tls_model("initial-exec"))) = 0;
thread_local uintptr_t t_stack_high __attribute__((tls_model("initial-exec"))) = 0;
// g_stack_bytes of the thread's own, where the handler copies the top of the stack (mapped while
// the thread's timer is armed; null otherwise: the sample then has no copy).
thread_local char* t_stack_copy __attribute__((tls_model("initial-exec"))) = nullptr;

struct Registers {
  uintptr_t pc = 0;
  uintptr_t fp = 0;
  uintptr_t sp = 0;
};

Registers RegistersOf(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
  Registers registers;
#if defined(__x86_64__)
  registers.pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  registers.fp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RBP]);
  registers.sp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  registers.pc = static_cast<uintptr_t>(uc->uc_mcontext.pc);
  registers.fp = static_cast<uintptr_t>(uc->uc_mcontext.regs[29]);
  registers.sp = static_cast<uintptr_t>(uc->uc_mcontext.sp);
#endif
  return registers;
}

// The registers DWARF unwinding starts from (sample_records.h: perf_event_x86_regs order).
void CopyUnwindRegisters(const void* context, uint64_t* out) {
#if defined(__x86_64__)
  const auto* uc = static_cast<const ucontext_t*>(context);
  constexpr int kOrder[protocol::kSampleRegisterCount] = {
      REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_RIP,
      REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
  for (size_t i = 0; i < protocol::kSampleRegisterCount; ++i) {
    out[i] = static_cast<uint64_t>(uc->uc_mcontext.gregs[kOrder[i]]);
  }
#else
  (void)context;
  (void)out;
#endif
}

// Copies up to g_stack_bytes of the interrupted stack, from `sp` up to the thread's stack end,
// into t_stack_copy; returns the bytes copied (0: no copy, e.g. a stack pointer on another stack
// than the thread's own, as in a coroutine, or not x86-64).
size_t CopyStack(uintptr_t sp) {
#if defined(__x86_64__)
  if (t_stack_copy == nullptr || sp < t_stack_low || sp >= t_stack_high) return 0;
  const size_t bytes =
      (t_stack_high - sp < g_stack_bytes ? t_stack_high - sp : g_stack_bytes) & ~size_t{7};
  // process_vm_readv, not memcpy: the copy takes the program's frames as they are, without the
  // address sanitizer's checks of a program built with it, and cannot fault.
  if (bytes == 0 ||
      !python::OwnMemory().Read(reinterpret_cast<const void*>(sp), t_stack_copy, bytes)) {
    return 0;
  }
  return bytes;
#else
  (void)sp;
  return 0;
#endif
}

void TakeSample(const siginfo_t* info, const void* context) {
  struct {
    protocol::CpuSampleRecord record;
    uint64_t words[protocol::kMaxSampleFrames + 2 * protocol::kMaxSamplePythonFrames +
                   protocol::kSampleRegisterCount];
  } sample;
  const Registers registers = RegistersOf(context);
  const WalkResult walk =
      WalkFramePointers(registers.pc, registers.fp, registers.sp, {t_stack_low, t_stack_high},
                        sample.words, protocol::kMaxSampleFrames);
  // Fault-proof reads (injection/python): the signal may have interrupted CPython while it links
  // or frees a frame.
  static_assert(protocol::kMaxSamplePythonFrames <= python::kMaxFramePairs);
  const size_t python = g_python_frames
                            ? python::ReadCurrentStackPairs(sample.words + walk.count,
                                                            protocol::kMaxSamplePythonFrames)
                            : 0;
  size_t words = walk.count + 2 * python;
  const size_t stack_bytes = CopyStack(registers.sp);
  if (stack_bytes != 0) {
    CopyUnwindRegisters(context, sample.words + words);
    words += protocol::kSampleRegisterCount;
  }
  sample.record = {};
  sample.record.header.kind = protocol::RecordKind::kCpuSample;
  sample.record.header.timestamp_ns = MonotonicNowNs();
  const int cpu = sched_getcpu();  // rseq or the vDSO: no system call, no lock
  sample.record.cpu = cpu >= 0 ? static_cast<uint32_t>(cpu) : UINT32_MAX;
  sample.record.frame_count = static_cast<uint16_t>(walk.count);
  sample.record.truncated = walk.truncated ? 1 : 0;
  sample.record.python_frame_count = static_cast<uint8_t>(python);
  sample.record.stack_bytes = static_cast<uint32_t>(stack_bytes);
  const int overrun = info->si_overrun > 0 ? info->si_overrun : 0;
  sample.record.periods =
      static_cast<uint16_t>(overrun < kMaxCopiesPerSignal ? overrun + 1 : kMaxCopiesPerSignal);
  EmitCpuSample(&sample.record, sizeof(sample.record) + words * sizeof(uint64_t), t_stack_copy,
                stack_bytes);
}

// Async-signal-safe (see the top of this file). Only prof's timers send SI_TIMER with its mark;
// any other instance of the signal (kill, sigqueue, a timer of the program's) is the program's.
void OnSampleSignal(int signal_number, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (info != nullptr && info->si_code == SI_TIMER && info->si_value.sival_int == kTimerMark) {
    if (g_sampling.load(std::memory_order_relaxed)) TakeSample(info, context);
  } else {
    DeliverToProgram(signal_number, info, context);
  }
  errno = saved_errno;
}

// The calling thread's stack, learned once per thread in normal context (pthread_getattr_np
// allocates, and reads /proc/self/maps for the main thread), never in the handler.
void LearnStackBounds() {
  if (t_stack_high != 0) return;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
  void* address = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attributes, &address, &size) == 0 && address != nullptr) {
    t_stack_low = reinterpret_cast<uintptr_t>(address);
    t_stack_high = t_stack_low + size;
  }
  pthread_attr_destroy(&attributes);
}

void DisarmThisThread() {
  if (t_timer_id < 0) return;
  syscall(SYS_timer_delete, t_timer_id);
  t_timer_id = -1;
  // A signal already queued may still come: it finds no buffer before the buffer goes.
  char* const copy = t_stack_copy;
  t_stack_copy = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (copy != nullptr) syscall(SYS_munmap, copy, g_stack_bytes);
}

// The buffer of the thread's stack copies, in normal context (the handler never maps).
void MapStackCopy() {
  if (g_stack_bytes == 0 || t_stack_copy != nullptr || !python::OwnMemory::Available()) return;
  void* buffer =
      reinterpret_cast<void*>(syscall(SYS_mmap, nullptr, g_stack_bytes, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (buffer == MAP_FAILED) return;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  t_stack_copy = static_cast<char*>(buffer);
}

// A thread's timer, armed on its own CPU-time clock and aimed at the thread itself.
void ArmThisThread() {
  if (g_signal == 0 || t_timer_id >= 0) return;
  const ErrnoKept errno_kept;
  const ScopedInternalCall internal;  // the OS-runtime tracer does not see prof's calls
  LearnStackBounds();
  MapStackCopy();
  // The program may have blocked every signal in the thread that created this one; the sampling
  // signal is prof's, so this thread takes it.
  sigset_t own;
  sigemptyset(&own);
  sigaddset(&own, g_signal);
  pthread_sigmask(SIG_UNBLOCK, &own, nullptr);
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = g_signal;
  event.sigev_value.sival_int = kTimerMark;
  event._sigev_un._tid = static_cast<pid_t>(CurrentTid());
  int timer_id = -1;
  if (syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, &event, &timer_id) != 0) return;
  const timespec period{static_cast<time_t>(g_period_ns / 1'000'000'000),
                        static_cast<long>(g_period_ns % 1'000'000'000)};
  const itimerspec schedule{period, period};
  if (syscall(SYS_timer_settime, timer_id, 0, &schedule, nullptr) != 0) {
    syscall(SYS_timer_delete, timer_id);
    return;
  }
  t_timer_id = timer_id;
  pthread_setspecific(g_timer_key, &t_timer_id);  // non-null: the destructor runs at exit
}

void OnThreadExit(void* /*timer*/) { DisarmThisThread(); }

// Installs OnSampleSignal on the first candidate signal nobody handles; 0 when none is free.
int InstallHandler() {
  for (const int offset : kSignalOffsets) {
    const int signal_number = SIGRTMAX - offset;
    if (signal_number < SIGRTMIN) continue;
    struct sigaction current {};
    if (NextSigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) {
      continue;
    }
    struct sigaction action {};
    action.sa_sigaction = OnSampleSignal;
    // No SA_ONSTACK: the handler runs on the interrupted thread's stack (most threads have no
    // alternate stack), and the walk then starts from the thread's own frames. SA_RESTART: system
    // calls that may restart do.
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (NextSigaction(signal_number, &action, nullptr) == 0) return signal_number;
  }
  return 0;
}

// Runs the program's thread start routine with this thread's timer armed around it. A thread that
// ends in pthread_exit or is cancelled has its timer deleted by g_timer_key's destructor.
struct SampledStart {
  void* (*start)(void*);
  void* argument;
};

void* RunSampledThread(void* start_argument) {
  const SampledStart start = *static_cast<SampledStart*>(start_argument);
  {
    const ScopedInternalCall internal;
    free(start_argument);
  }
  ArmThisThread();
  void* const result = start.start(start.argument);
  DisarmThisThread();
  return result;
}

using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

PthreadCreate NextPthreadCreate() {
  static const PthreadCreate next =
      reinterpret_cast<PthreadCreate>(dlsym(RTLD_NEXT, "pthread_create"));
  return next;
}

}  // namespace

bool InstallTimerSampling(uint32_t hz, bool python_frames, uint32_t stack_bytes) {
  if (hz == 0 || g_signal != 0) return g_signal != 0;
  g_python_frames = python_frames;
  g_stack_bytes = stack_bytes <= protocol::kMaxSampleStackBytes ? stack_bytes & ~7u : 0;
  if (pthread_key_create(&g_timer_key, OnThreadExit) != 0) return false;
  g_period_ns = 1'000'000'000ull / hz > 0 ? 1'000'000'000ull / hz : 1;
  g_signal = InstallHandler();
  if (g_signal != 0) GuardSamplingSignal(g_signal, reinterpret_cast<void*>(OnSampleSignal));
  return g_signal != 0;
}

bool TimerSamplingInstalled() { return g_signal != 0; }

void StartTimerSampling() {
  if (g_signal == 0) return;
  g_sampling.store(true, std::memory_order_release);
  ArmThisThread();
}

void RestartTimerSamplingInChild(bool stream_enabled) {
  if (g_signal == 0) return;
  t_timer_id = -1;  // the parent's: timers are not inherited
  g_sampling.store(stream_enabled, std::memory_order_release);
  if (stream_enabled) ArmThisThread();
}

void StopTimerSampling() {
  g_sampling.store(false, std::memory_order_release);
  DisarmThisThread();
}

}  // namespace prof::injection

// Arms each new thread's timer at its start (only while the fallback sampler runs). When
// libprof_osrt is preloaded too, its pthread_create is the next one and traces the call.
extern "C" PROF_EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attributes,
                                          void* (*start)(void*), void* argument) {
  using prof::injection::SampledStart;
  const prof::injection::PthreadCreate next = prof::injection::NextPthreadCreate();
  if (next == nullptr) return EAGAIN;
  if (!prof::injection::g_sampling.load(std::memory_order_acquire)) {
    return next(thread, attributes, start, argument);
  }
  SampledStart* sampled = nullptr;
  {
    const prof::injection::ScopedInternalCall internal;
    sampled = static_cast<SampledStart*>(malloc(sizeof(SampledStart)));
  }
  if (sampled == nullptr) return next(thread, attributes, start, argument);
  *sampled = {start, argument};
  const int result = next(thread, attributes, prof::injection::RunSampledThread, sampled);
  if (result != 0) {
    const prof::injection::ScopedInternalCall internal;
    free(sampled);
  }
  return result;
}
