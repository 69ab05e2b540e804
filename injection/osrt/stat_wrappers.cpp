// Interposers of the stat family. Since glibc 2.33 stat, lstat, fstat, fstatat and their 64-bit
// forms are real exported symbols; binaries built against older glibc (most Python wheels) call
// the versioned __xstat forms instead, which glibc still exports for them.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

// Removed from glibc's headers in 2.33, still exported for old binaries.
extern "C" {
int __xstat(int version, const char* path, struct stat* buffer) noexcept;
int __xstat64(int version, const char* path, struct stat64* buffer) noexcept;
int __lxstat(int version, const char* path, struct stat* buffer) noexcept;
int __lxstat64(int version, const char* path, struct stat64* buffer) noexcept;
int __fxstat(int version, int fd, struct stat* buffer) noexcept;
int __fxstat64(int version, int fd, struct stat64* buffer) noexcept;
int __fxstatat(int version, int directory_fd, const char* path, struct stat* buffer,
               int flags) noexcept;
int __fxstatat64(int version, int directory_fd, const char* path, struct stat64* buffer,
                 int flags) noexcept;
}

namespace {

// The system-call fallbacks: on 64-bit Linux the kernel's stat layout is glibc's struct stat.
long RawStatAt(int directory_fd, const char* path, void* buffer, int flags) {
  return syscall(SYS_newfstatat, directory_fd, path, buffer, flags);
}
long RawFstat(int fd, void* buffer) { return syscall(SYS_fstat, fd, buffer); }

}  // namespace

extern "C" PROF_EXPORT int stat(const char* path, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(stat, RawStatAt(AT_FDCWD, path, buffer, 0), path, buffer);
}

extern "C" PROF_EXPORT int stat64(const char* path, struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(stat64, RawStatAt(AT_FDCWD, path, buffer, 0), path, buffer);
}

extern "C" PROF_EXPORT int lstat(const char* path, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(lstat, RawStatAt(AT_FDCWD, path, buffer, AT_SYMLINK_NOFOLLOW), path,
                           buffer);
}

extern "C" PROF_EXPORT int lstat64(const char* path, struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(lstat64, RawStatAt(AT_FDCWD, path, buffer, AT_SYMLINK_NOFOLLOW), path,
                           buffer);
}

extern "C" PROF_EXPORT int fstat(int fd, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(fstat, RawFstat(fd, buffer), fd, buffer);
}

extern "C" PROF_EXPORT int fstat64(int fd, struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(fstat64, RawFstat(fd, buffer), fd, buffer);
}

extern "C" PROF_EXPORT int fstatat(int directory_fd, const char* path, struct stat* buffer,
                                   int flags) noexcept {
  return PROF_OSRT_FORWARD(fstatat, RawStatAt(directory_fd, path, buffer, flags), directory_fd,
                           path, buffer, flags);
}

extern "C" PROF_EXPORT int fstatat64(int directory_fd, const char* path, struct stat64* buffer,
                                     int flags) noexcept {
  return PROF_OSRT_FORWARD(fstatat64, RawStatAt(directory_fd, path, buffer, flags), directory_fd,
                           path, buffer, flags);
}

extern "C" PROF_EXPORT int __xstat(int version, const char* path, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(__xstat, RawStatAt(AT_FDCWD, path, buffer, 0), version, path, buffer);
}

extern "C" PROF_EXPORT int __xstat64(int version, const char* path,
                                     struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(__xstat64, RawStatAt(AT_FDCWD, path, buffer, 0), version, path, buffer);
}

extern "C" PROF_EXPORT int __lxstat(int version, const char* path, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(__lxstat, RawStatAt(AT_FDCWD, path, buffer, AT_SYMLINK_NOFOLLOW),
                           version, path, buffer);
}

extern "C" PROF_EXPORT int __lxstat64(int version, const char* path,
                                      struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(__lxstat64, RawStatAt(AT_FDCWD, path, buffer, AT_SYMLINK_NOFOLLOW),
                           version, path, buffer);
}

extern "C" PROF_EXPORT int __fxstat(int version, int fd, struct stat* buffer) noexcept {
  return PROF_OSRT_FORWARD(__fxstat, RawFstat(fd, buffer), version, fd, buffer);
}

extern "C" PROF_EXPORT int __fxstat64(int version, int fd, struct stat64* buffer) noexcept {
  return PROF_OSRT_FORWARD(__fxstat64, RawFstat(fd, buffer), version, fd, buffer);
}

extern "C" PROF_EXPORT int __fxstatat(int version, int directory_fd, const char* path,
                                      struct stat* buffer, int flags) noexcept {
  return PROF_OSRT_FORWARD(__fxstatat, RawStatAt(directory_fd, path, buffer, flags), version,
                           directory_fd, path, buffer, flags);
}

extern "C" PROF_EXPORT int __fxstatat64(int version, int directory_fd, const char* path,
                                        struct stat64* buffer, int flags) noexcept {
  return PROF_OSRT_FORWARD(__fxstatat64, RawStatAt(directory_fd, path, buffer, flags), version,
                           directory_fd, path, buffer, flags);
}
