// Interposers of condition variables. On x86_64 their next definitions are looked up with
// dlvsym(..., "GLIBC_2.3.2") (next_functions.cpp): the unversioned lookup can return the pre-2.3.2
// compat functions, which misread today's pthread_cond_t. They report errors as return values.
#include <pthread.h>
#include <time.h>

#include "injection/osrt/wrapper_support.h"

extern "C" PROF_EXPORT int pthread_cond_wait(pthread_cond_t* condition, pthread_mutex_t* mutex) {
  return PROF_OSRT_FORWARD(pthread_cond_wait, ENOSYS, condition, mutex);
}

extern "C" PROF_EXPORT int pthread_cond_timedwait(pthread_cond_t* condition, pthread_mutex_t* mutex,
                                                  const timespec* deadline) {
  return PROF_OSRT_FORWARD(pthread_cond_timedwait, ENOSYS, condition, mutex, deadline);
}

extern "C" PROF_EXPORT int pthread_cond_clockwait(pthread_cond_t* condition, pthread_mutex_t* mutex,
                                                  clockid_t clock, const timespec* deadline) {
  return PROF_OSRT_FORWARD(pthread_cond_clockwait, ENOSYS, condition, mutex, clock, deadline);
}

extern "C" PROF_EXPORT int pthread_cond_signal(pthread_cond_t* condition) noexcept {
  return PROF_OSRT_FORWARD(pthread_cond_signal, ENOSYS, condition);
}

extern "C" PROF_EXPORT int pthread_cond_broadcast(pthread_cond_t* condition) noexcept {
  return PROF_OSRT_FORWARD(pthread_cond_broadcast, ENOSYS, condition);
}
