// Reads of the profiled process's own memory that cannot fault.
//
// prof reads CPython's frames from inside the program (OS-runtime backtraces, the sampling
// signal's Python stack, CUDA calls' Python stacks), at moments the program did not choose: a
// frame may be half linked, or its memory already unmapped (CPython frees a data-stack chunk
// while the thread's current-frame pointer still points into it; an emptied arena is unmapped).
// A plain load there is a SIGSEGV in the user's program. process_vm_readv on the own pid copies
// what is mapped and reports what is not (EFAULT, a short count): the reader gets "gone", never a
// fault.
//
// Async-signal-safe: each read is one system call into a caller-given buffer; no lock, no
// allocation, errno kept. Where the kernel refuses the call (seccomp filters, ENOSYS under some
// sandboxes), Available() turns false for the process and every read fails: callers then take no
// Python stack rather than an unsafe one.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>

namespace prof::injection::python {

class OwnMemory {
 public:
  // Whether reads work in this process; probed once (thread-safe, async-signal-safe).
  static bool Available();

  // Binds to the calling process (its pid, which a fork changes). Cheap: one getpid.
  OwnMemory();

  // Copies `size` bytes at `address` into `out`; false unless all of them came.
  bool Read(const void* address, void* out, size_t size) const;
  template <typename T>
  bool ReadValue(const void* address, T* out) const {
    return Read(address, out, sizeof(T));
  }
  // Copies each remote range into its local buffer in one system call (at most `count` ≤ IOV_MAX);
  // returns how many ranges came whole, counted from the first: the kernel stops at the first one
  // it cannot read.
  size_t ReadMany(const iovec* local, const iovec* remote, size_t count) const;

 private:
  int pid_;
};

}  // namespace prof::injection::python
