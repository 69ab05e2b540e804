// How a traced process that ended without its exit record died, read from the kernel while it
// still can be: /proc/<pid>/stat's exit_code (Linux 3.5+, waitpid's status) is set when the
// process starts to exit and stays until its parent reaps it. The launcher is not the parent of
// most traced processes (DataLoader workers, ranks), and a parent that waits reaps its child
// before the launcher can read this: the parent's own libprof_core tells first
// (injection/core/child_status.cpp); this read covers parents that are not traced or never wait.
// The field is the thread group leader's: a leader that ended with pthread_exit before the
// process died leaves it unset, and then only the parent can tell.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace prof::collector {

struct ProcessDeath {
  int signal = 0;  // the signal that killed it
  bool core_dumped = false;
};

// The signal that killed process `pid`, if it exited (or is exiting) because of one; nullopt when
// it exited normally, still runs, or is gone (reaped) already.
std::optional<ProcessDeath> KilledBy(uint32_t pid);

// Whether the signal is a crash's or a kill's (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS,
// SIGTRAP, SIGKILL), not one a program sends to end another (SIGTERM, SIGINT, SIGHUP, SIGPIPE,
// SIGUSR1, ...).
bool KilledByAccident(const ProcessDeath& death);

// "killed by SIGSEGV (signal 11, core dumped)".
std::string DescribeDeath(const ProcessDeath& death);

}  // namespace prof::collector
