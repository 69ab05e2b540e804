#include "injection/cuda/activity_flusher.h"

#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "injection/core/event_stream.h"
#include "injection/core/last_words.h"
#include "injection/cuda/activity_selection.h"

namespace prof::injection::cuda {
namespace {

const CuptiFunctions* g_cupti = nullptr;
pid_t g_traced_pid = 0;

// Forced flushes asked for (last words) and served (futex words: 32 bits).
std::atomic<uint32_t> g_forced_requested{0};
std::atomic<uint32_t> g_forced_served{0};
// Held around every flush; the exit flush sets g_stopped under it, after which CUPTI (torn down
// with the process) is never called from the thread again.
pthread_mutex_t g_flush_mutex = PTHREAD_MUTEX_INITIALIZER;
bool g_stopped = false;
std::atomic<bool> g_exit_flushed{false};

int64_t MonotonicMs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
}

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected, int64_t timeout_ms) {
  const timespec timeout{static_cast<time_t>(timeout_ms / 1000),
                         static_cast<long>(timeout_ms % 1000) * 1'000'000};
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, &timeout,
          nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
}

// False once the exit flush ran: the thread ends.
bool Flush(uint32_t flags) {
  pthread_mutex_lock(&g_flush_mutex);
  const bool go_on = !g_stopped;
  if (go_on) g_cupti->cuptiActivityFlushAll(flags);
  pthread_mutex_unlock(&g_flush_mutex);
  return go_on;
}

void* FlusherMain(void*) {
  syscall(SYS_prctl, PR_SET_NAME, "prof-cupti", 0, 0, 0);  // prctl itself is interposed
  for (;;) {
    const uint32_t served = g_forced_served.load(std::memory_order_acquire);
    if (g_forced_requested.load(std::memory_order_acquire) == served) {
      FutexWait(&g_forced_requested, served, kActivityFlushPeriodMs);
    }
    const uint32_t requested = g_forced_requested.load(std::memory_order_acquire);
    const bool forced = requested != served;
    if (!Flush(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0)) return nullptr;
    if (forced) {
      g_forced_served.store(requested, std::memory_order_release);
      FutexWakeAll(&g_forced_served);
    }
  }
}

// At exit() — from any thread — while CUDA is still alive: this handler is registered inside cuInit,
// after the CUDA runtime's own, so it runs before CUDA tears down.
void FlushAtExit() {
  if (getpid() != g_traced_pid) return;  // a fork child: never call CUPTI there
  ScopedPatientEmit patient;
  pthread_mutex_lock(&g_flush_mutex);
  if (!g_stopped) g_cupti->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  g_stopped = true;
  g_exit_flushed.store(true, std::memory_order_release);
  pthread_mutex_unlock(&g_flush_mutex);
}

// Last words (async-signal-safe: atomics and futexes): the thread flushes, this one waits.
void FlushBeforeAbruptEnd() {
  if (syscall(SYS_getpid) != g_traced_pid || g_exit_flushed.load(std::memory_order_acquire)) {
    return;
  }
  const int saved_errno = errno;
  const uint32_t ticket = g_forced_requested.fetch_add(1, std::memory_order_acq_rel) + 1;
  FutexWakeAll(&g_forced_requested);
  const int64_t deadline = MonotonicMs() + kMaxLastFlushWaitMs;
  for (;;) {
    const uint32_t served = g_forced_served.load(std::memory_order_acquire);
    if (static_cast<int32_t>(served - ticket) >= 0) break;
    const int64_t left = deadline - MonotonicMs();
    if (left <= 0) break;
    FutexWait(&g_forced_served, served, left < 10 ? left : 10);
  }
  errno = saved_errno;
}

using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

// libc's own pthread_create (libpthread's before glibc 2.34).
PthreadCreate LibcPthreadCreate() {
  for (const char* library : {"libc.so.6", "libpthread.so.0"}) {
    void* handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    void* found = handle != nullptr ? dlsym(handle, "pthread_create") : nullptr;
    if (found != nullptr) return reinterpret_cast<PthreadCreate>(found);
  }
  return nullptr;
}

}  // namespace

bool StartActivityFlusher(const CuptiFunctions* cupti) {
  g_cupti = cupti;
  g_traced_pid = getpid();
  std::atexit(FlushAtExit);
  const PthreadCreate create = LibcPthreadCreate();
  if (create == nullptr) return false;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  sigset_t all;
  sigset_t before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);  // the new thread inherits the full mask
  pthread_t thread;
  const bool started = create(&thread, &attributes, FlusherMain, nullptr) == 0;
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  pthread_attr_destroy(&attributes);
  if (!started) return false;
  AddLastWords(FlushBeforeAbruptEnd);
  StandInForFatalSignals();
  return true;
}

}  // namespace prof::injection::cuda
