// How a traced process that ended without its exit record died, read from the kernel while it
// still can be: /proc/<pid>/stat's exit_code (Linux 3.5+, waitpid's status) is set when the
// process starts to exit and stays until its parent reaps it. The launcher is not the parent of
// most traced processes (DataLoader workers, ranks), so this is the only way it learns that one
// was killed, and by what.
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

// "killed by SIGSEGV (signal 11, core dumped)".
std::string DescribeDeath(const ProcessDeath& death);

}  // namespace prof::collector
