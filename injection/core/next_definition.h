// The next definition of a function libprof_core interposes (libprof_osrt's wrapper, or libc's),
// for the wrappers to call through.
#pragma once

#include <dlfcn.h>

namespace prof::injection {

// `*resolved`, looked up with dlsym(RTLD_NEXT, name) on first use. The wrappers' library
// constructors resolve theirs up front, so that a first call from a signal handler runs no dlsym;
// a call that comes before (another library's constructor) resolves its own.
template <typename Function>
Function NextDefinition(Function* resolved, const char* name) {
  if (*resolved == nullptr) *resolved = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
  return *resolved;
}

}  // namespace prof::injection
