#include "injection/osrt/next_functions.h"

#include <dlfcn.h>

#include <cerrno>
#include <cstring>

namespace prof::injection::osrt {

std::atomic<void*> g_next_functions[protocol::kOsrtFunctionCount];

namespace {

// Functions dlsym cannot find in this libc; never looked up again.
std::atomic<bool> g_missing[protocol::kOsrtFunctionCount];

// Set while this thread is inside dlsym/dlvsym. Initial-exec TLS needs no allocation, so reading
// it is safe from the very first call, in any thread, before or after the constructor.
__thread bool t_resolving __attribute__((tls_model("initial-exec"))) = false;

struct VersionedName {
  const char* name;
  const char* version;
};

#if defined(__x86_64__)
// glibc keeps the pre-2.3.2 condition variables as compat symbols and an unversioned dlsym may
// return them; programs linked today call the GLIBC_2.3.2 ones.
constexpr VersionedName kVersionedNames[] = {
    {"pthread_cond_wait", "GLIBC_2.3.2"},
    {"pthread_cond_timedwait", "GLIBC_2.3.2"},
    {"pthread_cond_signal", "GLIBC_2.3.2"},
    {"pthread_cond_broadcast", "GLIBC_2.3.2"},
};
#else
constexpr VersionedName kVersionedNames[] = {{"", nullptr}};
#endif

const char* RequiredVersion(const char* name) {
  for (const VersionedName& entry : kVersionedNames) {
    if (std::strcmp(entry.name, name) == 0) return entry.version;
  }
  return nullptr;
}

void* LookUp(const char* name) {
  const char* version = RequiredVersion(name);
  void* address = version != nullptr ? dlvsym(RTLD_NEXT, name, version) : nullptr;
  if (address == nullptr) address = dlsym(RTLD_NEXT, name);
  // A failed lookup must not leave its message for the program's next dlerror().
  if (address == nullptr) dlerror();
  return address;
}

}  // namespace

void* ResolveNextFunction(uint16_t id) {
  if (id >= protocol::kOsrtFunctionCount || t_resolving ||
      g_missing[id].load(std::memory_order_relaxed)) {
    return nullptr;
  }
  const int saved_errno = errno;
  t_resolving = true;
  void* const address = LookUp(protocol::kOsrtFunctionNames[id]);
  t_resolving = false;
  errno = saved_errno;
  if (address == nullptr) {
    g_missing[id].store(true, std::memory_order_relaxed);
  } else {
    g_next_functions[id].store(address, std::memory_order_relaxed);
  }
  return address;
}

void ResolveAllNextFunctions() {
  for (uint16_t id = 0; id < protocol::kOsrtFunctionCount; ++id) NextFunctionAddress(id);
}

}  // namespace prof::injection::osrt
