// Last words before an abrupt end (last_words.h): the registry, the fatal-signal stand-in, and the
// _exit and exec interposers, exported beside sigaction.
#include "injection/core/last_words.h"

#include <dlfcn.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "injection/core/next_definition.h"
#include "injection/core/sampling_signal.h"

namespace prof::injection {
namespace {

constexpr int kMaxLastWords = 4;
std::atomic<LastWords> g_last_words[kMaxLastWords];
std::atomic<int> g_last_words_count{0};

// Who says the last words now: (pid << 32 | tid), 0 when nobody. A value whose pid is not ours was
// inherited through fork from a parent thread that was speaking: the child may speak.
std::atomic<uint64_t> g_speaker{0};
constexpr int kMaxWaitForSpeakerMs = 3000;

// The signals whose default action ends the process and that a program commonly receives or
// raises; SIGKILL and SIGSTOP cannot be caught, SIGTRAP belongs to debuggers.
constexpr int kFatalSignals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGABRT, SIGBUS,
                                 SIGFPE,  SIGSEGV, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1,
                                 SIGUSR2, SIGXCPU, SIGXFSZ, SIGSYS};
std::atomic<uint64_t> g_stand_in_signals{0};  // bit n: prof stands in for SIG_DFL on signal n

using SigactionFunction = int (*)(int, const struct sigaction*, struct sigaction*);
using ExitFunction = void (*)(int);
using ExecveFunction = int (*)(const char*, char* const[], char* const[]);
using ExecvFunction = int (*)(const char*, char* const[]);
using FexecveFunction = int (*)(int, char* const[], char* const[]);

// prof's own sigaction calls go to libc's, not through libprof_osrt's wrapper: they are not the
// program's calls. Resolved by the constructor, so a handler never runs dlsym.
SigactionFunction g_libc_sigaction = nullptr;
ExitFunction g_next_exit = nullptr;
ExitFunction g_next_Exit = nullptr;
ExecveFunction g_next_execve = nullptr;
ExecvFunction g_next_execv = nullptr;
ExecvFunction g_next_execvp = nullptr;
ExecveFunction g_next_execvpe = nullptr;
FexecveFunction g_next_fexecve = nullptr;

SigactionFunction LibcSigaction() {
  if (g_libc_sigaction == nullptr) {
    void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void* found = libc != nullptr ? dlsym(libc, "sigaction") : nullptr;
    g_libc_sigaction = found != nullptr ? reinterpret_cast<SigactionFunction>(found)
                                        : NextDefinition(&g_libc_sigaction, "sigaction");
  }
  return g_libc_sigaction;
}

__attribute__((constructor)) void ResolveEndFunctions() {
  LibcSigaction();
  NextDefinition(&g_next_exit, "_exit");
  NextDefinition(&g_next_Exit, "_Exit");
  NextDefinition(&g_next_execve, "execve");
  NextDefinition(&g_next_execv, "execv");
  NextDefinition(&g_next_execvp, "execvp");
  NextDefinition(&g_next_execvpe, "execvpe");
  NextDefinition(&g_next_fexecve, "fexecve");
}

uint64_t SpeakerId() {
  const auto pid = static_cast<uint64_t>(syscall(SYS_getpid));
  const auto tid = static_cast<uint64_t>(syscall(SYS_gettid));
  return pid << 32 | (tid & 0xffffffffu);
}

void SleepOneMillisecond() {
  const timespec pause{0, 1'000'000};
  nanosleep(&pause, nullptr);
}

void StandInHandler(int signal_number, siginfo_t* /*info*/, void* /*context*/);

bool IsStandIn(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == StandInHandler;
}

int InstallStandIn(int signal_number) {
  struct sigaction stand_in {};
  stand_in.sa_sigaction = StandInHandler;
  // On the program's alternate stack when it has one: a SIGSEGV of a stack overflow still gets
  // its last words.
  stand_in.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&stand_in.sa_mask);
  return LibcSigaction()(signal_number, &stand_in, nullptr);
}

// What the kernel would have done: SIG_DFL back, and the signal again, delivered (it is blocked
// while its handler runs) as the handler returns. A fault re-raises itself anyway.
void StandInHandler(int signal_number, siginfo_t* /*info*/, void* /*context*/) {
  const int saved_errno = errno;
  SayLastWords();
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  LibcSigaction()(signal_number, &default_action, nullptr);
  syscall(SYS_tgkill, syscall(SYS_getpid), syscall(SYS_gettid), signal_number);
  errno = saved_errno;
}

}  // namespace

bool AddLastWords(LastWords words) {
  const int slot = g_last_words_count.load(std::memory_order_relaxed);
  if (slot >= kMaxLastWords) return false;
  g_last_words[slot].store(words, std::memory_order_release);
  g_last_words_count.store(slot + 1, std::memory_order_release);
  return true;
}

void StandInForFatalSignals() {
  uint64_t signals = 0;
  for (int signal_number : kFatalSignals) {
    signals |= uint64_t{1} << signal_number;
    struct sigaction current {};
    if (LibcSigaction()(signal_number, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      InstallStandIn(signal_number);
    }
  }
  g_stand_in_signals.store(signals, std::memory_order_release);
}

void SayLastWords() {
  const int count = g_last_words_count.load(std::memory_order_acquire);
  if (count == 0) return;
  const uint64_t self = SpeakerId();
  uint64_t speaker = g_speaker.load(std::memory_order_acquire);
  for (;;) {
    if (speaker == self) return;  // a fatal signal in the middle of our own last words
    const bool other_speaker_here = speaker != 0 && (speaker >> 32) == (self >> 32);
    if (other_speaker_here) break;
    if (g_speaker.compare_exchange_weak(speaker, self, std::memory_order_acq_rel)) {
      for (int i = 0; i < count; ++i) g_last_words[i].load(std::memory_order_acquire)();
      g_speaker.store(0, std::memory_order_release);
      return;
    }
  }
  // Another thread of this process speaks: the process must not end before it is done.
  for (int waited = 0; waited < kMaxWaitForSpeakerMs; ++waited) {
    const uint64_t now = g_speaker.load(std::memory_order_acquire);
    if (now == 0 || (now >> 32) != (self >> 32)) return;
    SleepOneMillisecond();
  }
}

bool MayStandIn(int signal_number) {
  return signal_number > 0 && signal_number < 64 &&
         ((g_stand_in_signals.load(std::memory_order_acquire) >> signal_number) & 1) != 0;
}

int StandInSigaction(int signal_number, const struct sigaction* action,
                     struct sigaction* old_action) {
  if (old_action != nullptr) {
    if (LibcSigaction()(signal_number, nullptr, old_action) != 0) return -1;
    if (IsStandIn(*old_action)) {
      *old_action = {};
      old_action->sa_handler = SIG_DFL;
      sigemptyset(&old_action->sa_mask);
    }
  }
  if (action == nullptr) return 0;
  if (action->sa_handler == SIG_DFL) return InstallStandIn(signal_number);
  return NextSigaction(signal_number, action, nullptr);
}

}  // namespace prof::injection

namespace injection = prof::injection;

extern "C" PROF_EXPORT void _exit(int status) noexcept {
  injection::SayLastWords();
  if (injection::ExitFunction next = injection::NextDefinition(&injection::g_next_exit, "_exit")) {
    next(status);
  }
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

extern "C" PROF_EXPORT void _Exit(int status) noexcept {
  injection::SayLastWords();
  if (injection::ExitFunction next = injection::NextDefinition(&injection::g_next_Exit, "_Exit")) {
    next(status);
  }
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

// exec replaces the image, and the buffers with it; when it fails the program goes on (and may
// say its last words again later).
extern "C" PROF_EXPORT int execve(const char* path, char* const argv[],
                                  char* const envp[]) noexcept {
  injection::SayLastWords();
  const injection::ExecveFunction next =
      injection::NextDefinition(&injection::g_next_execve, "execve");
  if (next == nullptr) return errno = ENOSYS, -1;
  return next(path, argv, envp);
}

extern "C" PROF_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  injection::SayLastWords();
  const injection::ExecvFunction next =
      injection::NextDefinition(&injection::g_next_execv, "execv");
  if (next == nullptr) return errno = ENOSYS, -1;
  return next(path, argv);
}

extern "C" PROF_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  injection::SayLastWords();
  const injection::ExecvFunction next =
      injection::NextDefinition(&injection::g_next_execvp, "execvp");
  if (next == nullptr) return errno = ENOSYS, -1;
  return next(file, argv);
}

extern "C" PROF_EXPORT int execvpe(const char* file, char* const argv[],
                                   char* const envp[]) noexcept {
  injection::SayLastWords();
  const injection::ExecveFunction next =
      injection::NextDefinition(&injection::g_next_execvpe, "execvpe");
  if (next == nullptr) return errno = ENOSYS, -1;
  return next(file, argv, envp);
}

extern "C" PROF_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  injection::SayLastWords();
  const injection::FexecveFunction next =
      injection::NextDefinition(&injection::g_next_fexecve, "fexecve");
  if (next == nullptr) return errno = ENOSYS, -1;
  return next(fd, argv, envp);
}
