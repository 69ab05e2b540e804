// Interposers of the calls that wait for descriptors. None is a thin system-call wrapper on every
// architecture (aarch64 has only ppoll, pselect6 and epoll_pwait, with extra arguments), so they
// fail with ENOSYS in the bootstrap corner described in next_functions.h.
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>

#include "injection/osrt/wrapper_support.h"

// Declared by glibc's headers only under _FORTIFY_SOURCE, which this library is built without.
extern "C" {
int __poll_chk(pollfd* fds, nfds_t count, int timeout_ms, size_t fds_size);
int __ppoll_chk(pollfd* fds, nfds_t count, const timespec* timeout, const sigset_t* mask,
                size_t fds_size);
}

using prof::injection::osrt::Unavailable;

extern "C" PROF_EXPORT int poll(pollfd* fds, nfds_t count, int timeout_ms) {
  return PROF_OSRT_FORWARD(poll, Unavailable<int>(), fds, count, timeout_ms);
}

extern "C" PROF_EXPORT int __poll_chk(pollfd* fds, nfds_t count, int timeout_ms, size_t fds_size) {
  return PROF_OSRT_FORWARD(__poll_chk, Unavailable<int>(), fds, count, timeout_ms, fds_size);
}

extern "C" PROF_EXPORT int ppoll(pollfd* fds, nfds_t count, const timespec* timeout,
                                 const sigset_t* mask) {
  return PROF_OSRT_FORWARD(ppoll, Unavailable<int>(), fds, count, timeout, mask);
}

extern "C" PROF_EXPORT int __ppoll_chk(pollfd* fds, nfds_t count, const timespec* timeout,
                                       const sigset_t* mask, size_t fds_size) {
  return PROF_OSRT_FORWARD(__ppoll_chk, Unavailable<int>(), fds, count, timeout, mask, fds_size);
}

extern "C" PROF_EXPORT int select(int count, fd_set* read_fds, fd_set* write_fds,
                                  fd_set* except_fds, timeval* timeout) {
  return PROF_OSRT_FORWARD(select, Unavailable<int>(), count, read_fds, write_fds, except_fds,
                           timeout);
}

extern "C" PROF_EXPORT int pselect(int count, fd_set* read_fds, fd_set* write_fds,
                                   fd_set* except_fds, const timespec* timeout,
                                   const sigset_t* mask) {
  return PROF_OSRT_FORWARD(pselect, Unavailable<int>(), count, read_fds, write_fds, except_fds,
                           timeout, mask);
}

extern "C" PROF_EXPORT int epoll_wait(int epoll_fd, epoll_event* events, int max_events,
                                      int timeout_ms) {
  return PROF_OSRT_FORWARD(epoll_wait, Unavailable<int>(), epoll_fd, events, max_events,
                           timeout_ms);
}

extern "C" PROF_EXPORT int epoll_pwait(int epoll_fd, epoll_event* events, int max_events,
                                       int timeout_ms, const sigset_t* mask) {
  return PROF_OSRT_FORWARD(epoll_pwait, Unavailable<int>(), epoll_fd, events, max_events,
                           timeout_ms, mask);
}
