// The OS-runtime function table shared by the interposer (libprof_osrt.so) and the collector:
// OsrtCallRecord::function_id is an index into kOsrtFunctionNames.
//
// Contract:
// - Each name is the exported libc symbol the program called, exactly as nsys writes it into
//   StringIds: a program built with _FILE_OFFSET_BITS=64 calls `open64`, `stat64`, `mmap64` and is
//   recorded under those names; fortified calls keep their own names (`__read_chk`, `__open_2`).
// - Names are unique; each one is exported by libprof_osrt.so (its exports.map lists the same set,
//   checked by tests/osrt/osrt_exports_test.cpp).
// - Ids are append-only: add new functions at the end, never reorder or reuse an entry.
//
// Adding a function: append its name here, add it to injection/osrt/exports.map and write its
// wrapper in the injection/osrt/*_wrappers.cpp file of its family.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace prof::protocol {

inline constexpr const char* kOsrtFunctionNames[] = {
    // Descriptor I/O.
    "read",
    "write",
    "pread",
    "pread64",
    "pwrite",
    "pwrite64",
    "readv",
    "writev",
    "__read_chk",
    "__pread_chk",
    "__pread64_chk",
    // Opening, closing and controlling descriptors.
    "open",
    "open64",
    "openat",
    "openat64",
    "__open_2",
    "__open64_2",
    "__openat_2",
    "__openat64_2",
    "creat",
    "creat64",
    "close",
    "fcntl",
    "fcntl64",
    "ioctl",
    // stdio.
    "fopen",
    "fopen64",
    "fclose",
    "fread",
    "fwrite",
    "fgets",
    "fflush",
    "__fread_chk",
    "__fgets_chk",
    // The stat family: real symbols since glibc 2.33, the __xstat forms for older binaries.
    "stat",
    "stat64",
    "lstat",
    "lstat64",
    "fstat",
    "fstat64",
    "fstatat",
    "fstatat64",
    "__xstat",
    "__xstat64",
    "__lxstat",
    "__lxstat64",
    "__fxstat",
    "__fxstat64",
    "__fxstatat",
    "__fxstatat64",
    // Waiting for descriptors.
    "poll",
    "__poll_chk",
    "ppoll",
    "__ppoll_chk",
    "select",
    "pselect",
    "epoll_wait",
    "epoll_pwait",
    // Sleeping.
    "nanosleep",
    "clock_nanosleep",
    "usleep",
    "sleep",
    // Locks (recorded only when contended) and condition variables.
    "pthread_mutex_lock",
    "pthread_mutex_timedlock",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "pthread_rwlock_timedrdlock",
    "pthread_rwlock_timedwrlock",
    "sem_wait",
    "sem_timedwait",
    "sem_clockwait",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "pthread_cond_clockwait",
    "pthread_cond_signal",
    "pthread_cond_broadcast",
    // Threads and processes.
    "pthread_create",
    "pthread_join",
    "fork",
    "system",
    "posix_spawn",
    "posix_spawnp",
    "wait",
    "waitpid",
    "wait4",
    "waitid",
    // Memory mappings.
    "mmap",
    "mmap64",
    "munmap",
    // Pipes and sockets.
    "pipe",
    "pipe2",
    "socket",
    "socketpair",
    "connect",
    "accept",
    "accept4",
    "bind",
    "listen",
    "send",
    "sendto",
    "sendmsg",
    "recv",
    "recvfrom",
    "recvmsg",
    "__recv_chk",
    "__recvfrom_chk",
    // Signals.
    "sigaction",
    // Descriptor duplication (DataLoader workers and subprocess set-ups; nsys lists them).
    "dup",
    "dup2",
    "dup3",
};

inline constexpr uint16_t kOsrtFunctionCount =
    static_cast<uint16_t>(sizeof(kOsrtFunctionNames) / sizeof(kOsrtFunctionNames[0]));

// The name of function `id`, or nullptr for an id this table does not know.
inline const char* OsrtFunctionName(uint16_t id) {
  return id < kOsrtFunctionCount ? kOsrtFunctionNames[id] : nullptr;
}

// The id of `name`, or kOsrtFunctionCount when the table lacks it. Meant for constant evaluation:
// the interposer names its wrappers' ids at compile time.
constexpr uint16_t OsrtFunctionId(std::string_view name) {
  for (uint16_t id = 0; id < kOsrtFunctionCount; ++id) {
    if (name == kOsrtFunctionNames[id]) return id;
  }
  return kOsrtFunctionCount;
}

}  // namespace prof::protocol
