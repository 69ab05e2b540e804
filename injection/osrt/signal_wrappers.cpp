// Interposer of signal-handler installation, which nsys records too (DataLoader workers and
// multiprocessing install handlers as they start).
#include <signal.h>

#include "injection/osrt/wrapper_support.h"

namespace osrt = prof::injection::osrt;

extern "C" PROF_EXPORT int sigaction(int signal_number, const struct sigaction* action,
                                     struct sigaction* old_action) noexcept {
  return PROF_OSRT_FORWARD(sigaction, osrt::Unavailable<int>(), signal_number, action, old_action);
}
