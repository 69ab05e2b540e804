// Whether this process's main program is statically linked. prof's libraries then arrive only
// through NVTX's dlopen (LD_PRELOAD is ignored), which brings a second libc into the program; that
// libc's threads and locks were never set up (a thread started through it crashed the program).
// Both libprof_core's start and libprof_nvtx's entry point ask first and then do nothing.
//
// Header-only and allocation-free: it reads the program headers the kernel mapped, found through
// the auxiliary vector, and needs no libc state beyond getauxval.
#pragma once

#include <elf.h>
#include <link.h>
#include <sys/auxv.h>

namespace prof::injection {

inline bool MainProgramIsStatic() {
  const auto* headers = reinterpret_cast<const ElfW(Phdr)*>(getauxval(AT_PHDR));
  const unsigned long count = getauxval(AT_PHNUM);
  // Every dynamically linked program on Linux has these entries; without them the safe answer is
  // "static": tracing nothing is better than crashing the program.
  if (headers == nullptr || count == 0) return true;
  for (unsigned long i = 0; i < count; ++i) {
    if (headers[i].p_type == PT_INTERP) return false;
  }
  return true;
}

}  // namespace prof::injection
