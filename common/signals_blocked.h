// Every asynchronous signal blocked on the calling thread for a scope. A thread started inside the scope
// inherits the full mask, so process-directed signals reach only the threads that handle them:
// prof's handlers then interrupt the owner thread's poll at once instead of running, unnoticed
// for up to a poll interval, on a helper thread.
#pragma once

#include <signal.h>

namespace prof {

// Blocks every asynchronous signal on the calling thread; `previous` (if not null) gets the old mask.
inline void BlockAsynchronousSignals(sigset_t* previous) {
  sigset_t all;
  sigfillset(&all);
  // A fault is the thread's own: it must still reach a sanitizer's or the default handler.
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP}) sigdelset(&all, fault);
  pthread_sigmask(SIG_SETMASK, &all, previous);
}

class ScopedSignalsBlocked {
 public:
  ScopedSignalsBlocked() { BlockAsynchronousSignals(&previous_); }
  ~ScopedSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  ScopedSignalsBlocked(const ScopedSignalsBlocked&) = delete;
  ScopedSignalsBlocked& operator=(const ScopedSignalsBlocked&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace prof
