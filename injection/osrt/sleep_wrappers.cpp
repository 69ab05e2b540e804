// Interposers of the sleeping calls. libc implements sleep and usleep with an internal
// nanosleep, so one call is one record.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "injection/osrt/wrapper_support.h"

using prof::injection::osrt::Unavailable;

extern "C" PROF_EXPORT int nanosleep(const timespec* duration, timespec* remaining) {
  return PROF_OSRT_FORWARD(nanosleep, syscall(SYS_nanosleep, duration, remaining), duration,
                           remaining);
}

// clock_nanosleep reports errors as its return value, not through errno.
extern "C" PROF_EXPORT int clock_nanosleep(clockid_t clock, int flags, const timespec* request,
                                           timespec* remaining) {
  return PROF_OSRT_FORWARD(clock_nanosleep, ENOSYS, clock, flags, request, remaining);
}

extern "C" PROF_EXPORT int usleep(useconds_t microseconds) {
  return PROF_OSRT_FORWARD(usleep, Unavailable<int>(), microseconds);
}

// sleep returns the seconds left unslept: all of them when it cannot sleep.
extern "C" PROF_EXPORT unsigned int sleep(unsigned int seconds) {
  return PROF_OSRT_FORWARD(sleep, seconds, seconds);
}
