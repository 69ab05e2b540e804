// How the program's children ended, seen where the program learns it: libprof_core interposes
// waitpid, wait4, waitid and wait (exported beside pthread_create; libprof_osrt's wrappers, when it
// is preloaded too, are the next ones and still trace the calls). A child that a signal killed (a
// DataLoader worker killed by the OOM killer, a rank that crashed) becomes a kProcessKilled record
// in the parent's stream, so the launcher says so at once: the launcher is not the parent of most
// traced processes, and a parent that waits reaps its child before anyone else can read its status.
//
// The wrappers call the next definition and only look at what it returned; they keep errno and
// are async-signal-safe (a SIGCHLD handler may reap), as Emit is, once the library constructor
// resolved the next definitions.
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <cerrno>

#include "injection/core/event_stream.h"
#include "injection/core/next_definition.h"
#include "injection/protocol/record_format.h"

namespace prof::injection {
namespace {

void TellKilled(pid_t child, int signal, bool core_dumped) {
  const int saved_errno = errno;
  protocol::ProcessKilledRecord record{};
  record.header.kind = protocol::RecordKind::kProcessKilled;
  record.header.timestamp_ns = MonotonicNowNs();
  record.pid = static_cast<uint32_t>(child);
  record.signal = signal;
  record.core_dumped = core_dumped ? 1 : 0;
  EmitRecord(&record.header, sizeof(record));
  errno = saved_errno;
}

// After a wait that returned `child` with `status` (waitpid's form).
void Reaped(pid_t child, const int* status) {
  if (child > 0 && status != nullptr && WIFSIGNALED(*status)) {
    TellKilled(child, WTERMSIG(*status), WCOREDUMP(*status) != 0);
  }
}

using WaitpidFunction = pid_t (*)(pid_t, int*, int);
using Wait4Function = pid_t (*)(pid_t, int*, int, struct rusage*);
using WaitFunction = pid_t (*)(int*);
using WaitidFunction = int (*)(idtype_t, id_t, siginfo_t*, int);

// The next definitions (libprof_osrt's wrappers, or libc's), resolved by the library constructor:
// a first call from a SIGCHLD handler must not run dlsym. A call that comes before it (another
// library's constructor) resolves its own.
WaitpidFunction g_next_waitpid = nullptr;
Wait4Function g_next_wait4 = nullptr;
WaitFunction g_next_wait = nullptr;
WaitidFunction g_next_waitid = nullptr;

// Calls `call` (a wait that fills a waitpid-form status) through `next`, with a status of its
// own when the caller passed none, and tells of the child it reaped.
template <typename Function, typename Call>
pid_t ReapThrough(Function* next_slot, const char* name, int* status, Call call) {
  const Function next = NextDefinition(next_slot, name);
  if (next == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  int own = 0;
  int* const where = status != nullptr ? status : &own;
  const pid_t child = call(next, where);
  Reaped(child, where);
  return child;
}

__attribute__((constructor)) void ResolveWaitFunctions() {
  NextDefinition(&g_next_waitpid, "waitpid");
  NextDefinition(&g_next_wait4, "wait4");
  NextDefinition(&g_next_wait, "wait");
  NextDefinition(&g_next_waitid, "waitid");
}

}  // namespace
}  // namespace prof::injection

extern "C" PROF_EXPORT pid_t waitpid(pid_t pid, int* status, int options) {
  return prof::injection::ReapThrough(
      &prof::injection::g_next_waitpid, "waitpid", status,
      [&](auto next, int* where) { return next(pid, where, options); });
}

extern "C" PROF_EXPORT pid_t wait4(pid_t pid, int* status, int options, struct rusage* usage) {
  return prof::injection::ReapThrough(
      &prof::injection::g_next_wait4, "wait4", status,
      [&](auto next, int* where) { return next(pid, where, options, usage); });
}

// Its own next definition, not waitpid's: the OS-runtime tracer records wait as wait.
extern "C" PROF_EXPORT pid_t wait(int* status) {
  return prof::injection::ReapThrough(&prof::injection::g_next_wait, "wait", status,
                                      [](auto next, int* where) { return next(where); });
}

// With WNOWAIT the child stays waitable: it is told when it is reaped.
extern "C" PROF_EXPORT int waitid(idtype_t type, id_t id, siginfo_t* info, int options) {
  using prof::injection::g_next_waitid;
  const auto next = prof::injection::NextDefinition(&g_next_waitid, "waitid");
  if (next == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  const int result = next(type, id, info, options);
  if (result == 0 && info != nullptr && (options & WNOWAIT) == 0 && info->si_pid > 0 &&
      (info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED)) {
    prof::injection::TellKilled(info->si_pid, info->si_status, info->si_code == CLD_DUMPED);
  }
  return result;
}
