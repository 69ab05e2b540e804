// Reads another process's memory with process_vm_readv: no ptrace stop, no /proc/<pid>/mem
// descriptor; one system call per Read, and ReadMany gathers many ranges in one call.
//
// The kernel allows it where ptrace(PTRACE_MODE_ATTACH_REALCREDS) would be allowed: the caller is
// root (CAP_SYS_PTRACE), or has the target's uid and Yama's ptrace_scope allows it (0, or 1 when
// the caller is the target's ancestor, as prof's launcher is). Reads of memory the target does
// not map (EFAULT) or has unmapped since are ordinary failures: the caller decides whether the
// target moved on under it.
//
// Not thread-safe only in that `last_error()` is per object; otherwise stateless.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace prof::collector {

class RemoteMemory {
 public:
  explicit RemoteMemory(int pid) : pid_(pid) {}

  // Reads `size` bytes at `address` into `out`; false (errno in last_error()) unless all came.
  bool Read(uint64_t address, void* out, size_t size);
  template <typename T>
  bool ReadValue(uint64_t address, T* out) {
    return Read(address, out, sizeof(T));
  }
  // Reads each of `remote`'s ranges into the matching `local` buffer, in one system call (at most
  // IOV_MAX ranges); returns how many bytes came. The kernel stops at the first range it cannot
  // read, so the ranges before it are complete.
  size_t ReadMany(const std::vector<iovec>& local, const std::vector<iovec>& remote);

  int pid() const { return pid_; }
  int last_error() const { return last_error_; }
  // The process is gone (ESRCH), rather than an address unmapped.
  bool ProcessGone() const;
  // "process_vm_readv of pid 12: Operation not permitted (errno 1)"
  std::string ErrorText() const;

 private:
  int pid_;
  int last_error_ = 0;
};

}  // namespace prof::collector
