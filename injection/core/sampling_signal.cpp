// The sampling signal's guard (sampling_signal.h): libprof_core's sigaction and the signal family,
// exported beside pthread_create. When libprof_osrt is preloaded too, its sigaction is the next
// one and traces every call but the guarded signal's.
#include "injection/core/sampling_signal.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "injection/core/event_stream.h"
#include "injection/core/last_words.h"
#include "injection/core/next_definition.h"

namespace prof::injection {
namespace {

using SigactionFunction = int (*)(int, const struct sigaction*, struct sigaction*);
using SignalFunction = sighandler_t (*)(int, sighandler_t);

// The next definitions, resolved by the library constructor (a handler must not run dlsym); a
// call that comes before it (another library's constructor) resolves its own.
SigactionFunction g_next_sigaction = nullptr;
SignalFunction g_next_signal = nullptr;
SignalFunction g_next_sysv_signal = nullptr;

__attribute__((constructor)) void ResolveSignalFunctions() {
  NextDefinition(&g_next_sigaction, "sigaction");
  NextDefinition(&g_next_signal, "signal");
  NextDefinition(&g_next_sysv_signal, "sysv_signal");
}

std::atomic<int> g_guarded{0};   // the sampling signal once guarded, else 0
void* g_prof_handler = nullptr;  // prof's handler on it

// The program's wish for the guarded signal, under a sequence lock: writers (sigaction calls, and
// the handler for SA_RESETHAND) take g_wish_writer with the signal blocked in their thread, so a
// handler never waits on its own thread; a reader copies the wish and retries while a write was
// under way (odd sequence, or a sequence that moved).
struct Wish {
  bool set = false;  // the program set an action of its own
  struct sigaction action {};
};
Wish g_wish;
std::atomic<uint32_t> g_wish_sequence{0};
std::atomic<bool> g_wish_writer{false};

bool ReadWish(struct sigaction* wish) {
  for (;;) {
    const uint32_t before = g_wish_sequence.load(std::memory_order_acquire);
    if ((before & 1) != 0) continue;  // a write is under way on another thread
    const Wish copy = g_wish;
    std::atomic_thread_fence(std::memory_order_acquire);
    if (g_wish_sequence.load(std::memory_order_relaxed) != before) continue;
    if (copy.set) *wish = copy.action;
    return copy.set;
  }
}

// Putting back prof's own handler (a program that saved the old action and restores it) is no
// wish of the program's: prof's handler would then call itself.
void RecordWish(const struct sigaction& action) {
  sigset_t blocked;
  sigset_t before;
  sigemptyset(&blocked);
  sigaddset(&blocked, g_guarded.load(std::memory_order_relaxed));
  pthread_sigmask(SIG_BLOCK, &blocked, &before);
  while (g_wish_writer.exchange(true, std::memory_order_acquire)) {
  }
  g_wish_sequence.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  g_wish.set = reinterpret_cast<void*>(action.sa_handler) != g_prof_handler;
  g_wish.action = action;
  g_wish_sequence.fetch_add(1, std::memory_order_release);
  g_wish_writer.store(false, std::memory_order_release);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// The kernel takes a handler value of SIG_DFL or SIG_IGN as such whatever the flags say (the
// union's sa_handler and sa_sigaction share their storage).
bool Is(const struct sigaction& action, sighandler_t handler) {
  return action.sa_handler == handler;
}

// The default action of a real-time signal: the process dies of it. The handler blocks the
// signal, so the one sent here arrives, to the default disposition, once the handler returns.
void DieOf(int signal_number) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  NextSigaction(signal_number, &default_action, nullptr);
  syscall(SYS_tgkill, getpid(), static_cast<pid_t>(syscall(SYS_gettid)), signal_number);
}

// signal(), sysv_signal() for the guarded signal and the stand-ins (last_words.h), as glibc builds
// their actions.
sighandler_t SetLikeSignal(int signal_number, sighandler_t handler, int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  if ((flags & SA_NODEFER) == 0) sigaddset(&action.sa_mask, signal_number);
  struct sigaction old_action {};
  if (sigaction(signal_number, &action, &old_action) != 0) return SIG_ERR;
  return old_action.sa_handler;
}

}  // namespace

int NextSigaction(int signal_number, const struct sigaction* action, struct sigaction* old_action) {
  const SigactionFunction next = NextDefinition(&g_next_sigaction, "sigaction");
  if (next == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  return next(signal_number, action, old_action);
}

void GuardSamplingSignal(int signal_number, void* prof_handler) {
  g_prof_handler = prof_handler;
  g_guarded.store(signal_number, std::memory_order_release);
}

void DeliverToProgram(int signal_number, siginfo_t* info, void* context) {
  struct sigaction wish {};
  if (!ReadWish(&wish) || Is(wish, SIG_DFL)) {
    DieOf(signal_number);
    return;
  }
  if (Is(wish, SIG_IGN)) return;
  if ((wish.sa_flags & SA_RESETHAND) != 0) {
    struct sigaction reset {};
    reset.sa_handler = SIG_DFL;
    sigemptyset(&reset.sa_mask);
    RecordWish(reset);
  }
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, &wish.sa_mask, &before);
  if ((wish.sa_flags & SA_SIGINFO) != 0) {
    wish.sa_sigaction(signal_number, info, context);
  } else {
    wish.sa_handler(signal_number);
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

}  // namespace prof::injection

namespace injection = prof::injection;

extern "C" PROF_EXPORT int sigaction(int signal_number, const struct sigaction* action,
                                     struct sigaction* old_action) noexcept {
  const int guarded = injection::g_guarded.load(std::memory_order_acquire);
  if (guarded == 0 || signal_number != guarded) {
    if (injection::MayStandIn(signal_number)) {
      return injection::StandInSigaction(signal_number, action, old_action);
    }
    return injection::NextSigaction(signal_number, action, old_action);
  }
  if (old_action != nullptr && !injection::ReadWish(old_action)) {
    injection::NextSigaction(signal_number, nullptr, old_action);  // prof's, until the program's
  }
  if (action != nullptr) injection::RecordWish(*action);
  return 0;
}

// glibc's signal() has BSD semantics (restarting calls, the signal blocked in its handler).
extern "C" PROF_EXPORT sighandler_t signal(int signal_number, sighandler_t handler) noexcept {
  const int guarded = injection::g_guarded.load(std::memory_order_acquire);
  if ((guarded == 0 || signal_number != guarded) && !injection::MayStandIn(signal_number)) {
    const injection::SignalFunction next =
        injection::NextDefinition(&injection::g_next_signal, "signal");
    return next != nullptr ? next(signal_number, handler) : SIG_ERR;
  }
  return injection::SetLikeSignal(signal_number, handler, SA_RESTART);
}

// What strict ISO C programs call for signal() (glibc redirects it): System V semantics.
extern "C" PROF_EXPORT sighandler_t sysv_signal(int signal_number, sighandler_t handler) noexcept {
  const int guarded = injection::g_guarded.load(std::memory_order_acquire);
  if ((guarded == 0 || signal_number != guarded) && !injection::MayStandIn(signal_number)) {
    const injection::SignalFunction next =
        injection::NextDefinition(&injection::g_next_sysv_signal, "sysv_signal");
    return next != nullptr ? next(signal_number, handler) : SIG_ERR;
  }
  return injection::SetLikeSignal(signal_number, handler, SA_RESETHAND | SA_NODEFER);
}
extern "C" PROF_EXPORT sighandler_t __sysv_signal(int signal_number, sighandler_t handler) noexcept
    __attribute__((alias("sysv_signal")));
