// Interposers of thread creation and joining. Threads are created untouched: a new thread's
// tracing state is its zero-initialised TLS, so it needs no start-routine wrapper.
#include <pthread.h>

#include "injection/osrt/wrapper_support.h"

// Without a definition, report pthread_create's documented "insufficient resources" error.
extern "C" PROF_EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attributes,
                                          void* (*start)(void*), void* argument) noexcept {
  return PROF_OSRT_FORWARD(pthread_create, EAGAIN, thread, attributes, start, argument);
}

extern "C" PROF_EXPORT int pthread_join(pthread_t thread, void** result) {
  return PROF_OSRT_FORWARD(pthread_join, ENOSYS, thread, result);
}
