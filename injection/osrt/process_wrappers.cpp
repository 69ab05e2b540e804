// Interposers of process creation and reaping. vfork is not interposed: its child borrows the
// parent's stack, so a wrapper's frame would be torn down under the parent's feet.
#include <spawn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

namespace osrt = prof::injection::osrt;

// fork is recorded in the parent only. The child returns through this same frame, but a record
// emitted there would describe a call the child never started; the stream restarts in the child
// from libprof_core.so's pthread_atfork handler, which ran inside the fork.
extern "C" PROF_EXPORT pid_t fork() noexcept {
  constexpr uint16_t kId = PROF_OSRT_FUNCTION_ID(fork);
  const auto next = osrt::NextFunction<decltype(&::fork)>(kId);
  if (next == nullptr) return osrt::Unavailable<pid_t>();
  const osrt::CallTiming timing = osrt::BeginCall();
  const pid_t child = next();
  if (child == 0) {
    osrt::AbandonCall(timing);
  } else {
    osrt::EndCall(timing, kId, child);
  }
  return child;
}

extern "C" PROF_EXPORT int system(const char* command) {
  return PROF_OSRT_FORWARD(system, osrt::Unavailable<int>(), command);
}

// posix_spawn reports errors as its return value, not through errno.
extern "C" PROF_EXPORT int posix_spawn(pid_t* child, const char* path,
                                       const posix_spawn_file_actions_t* file_actions,
                                       const posix_spawnattr_t* attributes, char* const argv[],
                                       char* const envp[]) {
  return PROF_OSRT_FORWARD(posix_spawn, ENOSYS, child, path, file_actions, attributes, argv, envp);
}

extern "C" PROF_EXPORT int posix_spawnp(pid_t* child, const char* file,
                                        const posix_spawn_file_actions_t* file_actions,
                                        const posix_spawnattr_t* attributes, char* const argv[],
                                        char* const envp[]) {
  return PROF_OSRT_FORWARD(posix_spawnp, ENOSYS, child, file, file_actions, attributes, argv, envp);
}

extern "C" PROF_EXPORT pid_t wait(int* status) {
  return PROF_OSRT_FORWARD(wait, syscall(SYS_wait4, -1, status, 0, nullptr), status);
}

extern "C" PROF_EXPORT pid_t waitpid(pid_t pid, int* status, int options) {
  return PROF_OSRT_FORWARD(waitpid, syscall(SYS_wait4, pid, status, options, nullptr), pid, status,
                           options);
}

extern "C" PROF_EXPORT pid_t wait4(pid_t pid, int* status, int options, rusage* usage) noexcept {
  return PROF_OSRT_FORWARD(wait4, syscall(SYS_wait4, pid, status, options, usage), pid, status,
                           options, usage);
}

extern "C" PROF_EXPORT int waitid(idtype_t id_type, id_t id, siginfo_t* info, int options) {
  return PROF_OSRT_FORWARD(waitid, syscall(SYS_waitid, id_type, id, info, options, nullptr),
                           id_type, id, info, options);
}
