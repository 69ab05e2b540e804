// Interposers of descriptor reads and writes, including the fortified (_FORTIFY_SOURCE) entry
// points that programs built with it call instead of read/pread.
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

// Declared by glibc's headers only under _FORTIFY_SOURCE, which this library is built without.
extern "C" {
ssize_t __read_chk(int fd, void* buffer, size_t count, size_t buffer_size);
ssize_t __pread_chk(int fd, void* buffer, size_t count, off_t offset, size_t buffer_size);
ssize_t __pread64_chk(int fd, void* buffer, size_t count, off64_t offset, size_t buffer_size);
}

extern "C" PROF_EXPORT ssize_t read(int fd, void* buffer, size_t count) {
  return PROF_OSRT_FORWARD(read, syscall(SYS_read, fd, buffer, count), fd, buffer, count);
}

extern "C" PROF_EXPORT ssize_t write(int fd, const void* buffer, size_t count) {
  return PROF_OSRT_FORWARD(write, syscall(SYS_write, fd, buffer, count), fd, buffer, count);
}

extern "C" PROF_EXPORT ssize_t pread(int fd, void* buffer, size_t count, off_t offset) {
  return PROF_OSRT_FORWARD(pread, syscall(SYS_pread64, fd, buffer, count, offset), fd, buffer,
                           count, offset);
}

extern "C" PROF_EXPORT ssize_t pread64(int fd, void* buffer, size_t count, off64_t offset) {
  return PROF_OSRT_FORWARD(pread64, syscall(SYS_pread64, fd, buffer, count, offset), fd, buffer,
                           count, offset);
}

extern "C" PROF_EXPORT ssize_t pwrite(int fd, const void* buffer, size_t count, off_t offset) {
  return PROF_OSRT_FORWARD(pwrite, syscall(SYS_pwrite64, fd, buffer, count, offset), fd, buffer,
                           count, offset);
}

extern "C" PROF_EXPORT ssize_t pwrite64(int fd, const void* buffer, size_t count, off64_t offset) {
  return PROF_OSRT_FORWARD(pwrite64, syscall(SYS_pwrite64, fd, buffer, count, offset), fd, buffer,
                           count, offset);
}

extern "C" PROF_EXPORT ssize_t readv(int fd, const iovec* vector, int count) {
  return PROF_OSRT_FORWARD(readv, syscall(SYS_readv, fd, vector, count), fd, vector, count);
}

extern "C" PROF_EXPORT ssize_t writev(int fd, const iovec* vector, int count) {
  return PROF_OSRT_FORWARD(writev, syscall(SYS_writev, fd, vector, count), fd, vector, count);
}

// The fortified forms fall back to the plain system call: the size check they add only guards
// against a program bug, and the fallback exists for bootstrap re-entry alone.
extern "C" PROF_EXPORT ssize_t __read_chk(int fd, void* buffer, size_t count, size_t buffer_size) {
  return PROF_OSRT_FORWARD(__read_chk, syscall(SYS_read, fd, buffer, count), fd, buffer, count,
                           buffer_size);
}

extern "C" PROF_EXPORT ssize_t __pread_chk(int fd, void* buffer, size_t count, off_t offset,
                                           size_t buffer_size) {
  return PROF_OSRT_FORWARD(__pread_chk, syscall(SYS_pread64, fd, buffer, count, offset), fd, buffer,
                           count, offset, buffer_size);
}

extern "C" PROF_EXPORT ssize_t __pread64_chk(int fd, void* buffer, size_t count, off64_t offset,
                                             size_t buffer_size) {
  return PROF_OSRT_FORWARD(__pread64_chk, syscall(SYS_pread64, fd, buffer, count, offset), fd,
                           buffer, count, offset, buffer_size);
}
