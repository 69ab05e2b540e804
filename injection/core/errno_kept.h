// Keeps the program's errno across prof's own system calls in the program (a new thread's ring, a
// drain request, a wait for room, a sampling signal): the program never sees an errno prof set.
// Only around slow paths: appending to a ring touches no errno.
#pragma once

#include <cerrno>

namespace prof::injection {

class ErrnoKept {
 public:
  ErrnoKept() : saved_(errno) {}
  ~ErrnoKept() { errno = saved_; }
  ErrnoKept(const ErrnoKept&) = delete;
  ErrnoKept& operator=(const ErrnoKept&) = delete;

 private:
  int saved_;
};

}  // namespace prof::injection
