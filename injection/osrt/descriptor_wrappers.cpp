// Interposers that open, close, duplicate and control descriptors: the open family with its 64-bit
// and fortified forms, creat, close, dup/dup2/dup3, fcntl and ioctl.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdarg>

#include "injection/osrt/wrapper_support.h"

// Declared by glibc's headers only under _FORTIFY_SOURCE, which this library is built without.
extern "C" {
int __open_2(const char* path, int flags);
int __open64_2(const char* path, int flags);
int __openat_2(int directory_fd, const char* path, int flags);
int __openat64_2(int directory_fd, const char* path, int flags);
}

namespace {

// open(2)'s mode argument exists only when the flags create a file. The caller owns `arguments`
// (va_start/va_end must run in the variadic function itself).
mode_t ModeArgument(int flags, va_list arguments) {
  const bool takes_mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE;
  return takes_mode ? va_arg(arguments, mode_t) : 0;
}

}  // namespace

extern "C" PROF_EXPORT int open(const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  const mode_t mode = ModeArgument(flags, arguments);
  va_end(arguments);
  return PROF_OSRT_FORWARD(open, syscall(SYS_openat, AT_FDCWD, path, flags, mode), path, flags,
                           mode);
}

extern "C" PROF_EXPORT int open64(const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  const mode_t mode = ModeArgument(flags, arguments);
  va_end(arguments);
  return PROF_OSRT_FORWARD(open64, syscall(SYS_openat, AT_FDCWD, path, flags, mode), path, flags,
                           mode);
}

extern "C" PROF_EXPORT int openat(int directory_fd, const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  const mode_t mode = ModeArgument(flags, arguments);
  va_end(arguments);
  return PROF_OSRT_FORWARD(openat, syscall(SYS_openat, directory_fd, path, flags, mode),
                           directory_fd, path, flags, mode);
}

extern "C" PROF_EXPORT int openat64(int directory_fd, const char* path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  const mode_t mode = ModeArgument(flags, arguments);
  va_end(arguments);
  return PROF_OSRT_FORWARD(openat64, syscall(SYS_openat, directory_fd, path, flags, mode),
                           directory_fd, path, flags, mode);
}

extern "C" PROF_EXPORT int __open_2(const char* path, int flags) {
  return PROF_OSRT_FORWARD(__open_2, syscall(SYS_openat, AT_FDCWD, path, flags), path, flags);
}

extern "C" PROF_EXPORT int __open64_2(const char* path, int flags) {
  return PROF_OSRT_FORWARD(__open64_2, syscall(SYS_openat, AT_FDCWD, path, flags), path, flags);
}

extern "C" PROF_EXPORT int __openat_2(int directory_fd, const char* path, int flags) {
  return PROF_OSRT_FORWARD(__openat_2, syscall(SYS_openat, directory_fd, path, flags), directory_fd,
                           path, flags);
}

extern "C" PROF_EXPORT int __openat64_2(int directory_fd, const char* path, int flags) {
  return PROF_OSRT_FORWARD(__openat64_2, syscall(SYS_openat, directory_fd, path, flags),
                           directory_fd, path, flags);
}

extern "C" PROF_EXPORT int creat(const char* path, mode_t mode) {
  return PROF_OSRT_FORWARD(
      creat, syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode), path, mode);
}

extern "C" PROF_EXPORT int creat64(const char* path, mode_t mode) {
  return PROF_OSRT_FORWARD(
      creat64, syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode), path, mode);
}

extern "C" PROF_EXPORT int close(int fd) {
  return PROF_OSRT_FORWARD(close, syscall(SYS_close, fd), fd);
}

extern "C" PROF_EXPORT int dup(int fd) { return PROF_OSRT_FORWARD(dup, syscall(SYS_dup, fd), fd); }

extern "C" PROF_EXPORT int dup2(int fd, int target) {
  return PROF_OSRT_FORWARD(dup2, syscall(SYS_dup2, fd, target), fd, target);
}

extern "C" PROF_EXPORT int dup3(int fd, int target, int flags) {
  return PROF_OSRT_FORWARD(dup3, syscall(SYS_dup3, fd, target, flags), fd, target, flags);
}

// fcntl's third argument is an int or a pointer depending on the command; like glibc, pass it on
// as a pointer-sized value either way.
extern "C" PROF_EXPORT int fcntl(int fd, int command, ...) {
  va_list arguments;
  va_start(arguments, command);
  void* const argument = va_arg(arguments, void*);
  va_end(arguments);
  return PROF_OSRT_FORWARD(fcntl, syscall(SYS_fcntl, fd, command, argument), fd, command, argument);
}

extern "C" PROF_EXPORT int fcntl64(int fd, int command, ...) {
  va_list arguments;
  va_start(arguments, command);
  void* const argument = va_arg(arguments, void*);
  va_end(arguments);
  return PROF_OSRT_FORWARD(fcntl64, syscall(SYS_fcntl, fd, command, argument), fd, command,
                           argument);
}

extern "C" PROF_EXPORT int ioctl(int fd, unsigned long request, ...) noexcept {
  va_list arguments;
  va_start(arguments, request);
  void* const argument = va_arg(arguments, void*);
  va_end(arguments);
  return PROF_OSRT_FORWARD(ioctl, syscall(SYS_ioctl, fd, request, argument), fd, request, argument);
}
