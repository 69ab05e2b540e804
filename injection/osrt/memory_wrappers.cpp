// Interposers of memory mappings (large mappings and their page-table work can take long).
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

namespace {

// The system call's -1 on failure is MAP_FAILED.
void* RawMmap(void* address, size_t length, int protection, int flags, int fd, off64_t offset) {
  return reinterpret_cast<void*>(syscall(SYS_mmap, address, length, protection, flags, fd, offset));
}

}  // namespace

extern "C" PROF_EXPORT void* mmap(void* address, size_t length, int protection, int flags, int fd,
                                  off_t offset) noexcept {
  return PROF_OSRT_FORWARD(mmap, RawMmap(address, length, protection, flags, fd, offset), address,
                           length, protection, flags, fd, offset);
}

extern "C" PROF_EXPORT void* mmap64(void* address, size_t length, int protection, int flags, int fd,
                                    off64_t offset) noexcept {
  return PROF_OSRT_FORWARD(mmap64, RawMmap(address, length, protection, flags, fd, offset), address,
                           length, protection, flags, fd, offset);
}

extern "C" PROF_EXPORT int munmap(void* address, size_t length) noexcept {
  return PROF_OSRT_FORWARD(munmap, syscall(SYS_munmap, address, length), address, length);
}
