// Interposers of lock acquisitions. Like nsys, a lock call is recorded only when it had to wait:
// each wrapper first tries the lock (trylock / sem_trywait, not interposed, so bound directly to
// libc) and takes the duration clock only when that fails because the lock is held. The try has
// the same outcome as the blocking call whenever it does not report "busy" (recursive, error-
// checking and robust mutexes included), so returning its result keeps the semantics.
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <time.h>

#include "injection/osrt/wrapper_support.h"

namespace {

// Fallback when the next blocking function is unavailable: poll the try form until it settles.
template <typename Lock>
int LockByPolling(Lock* lock, int (*try_lock)(Lock*)) {
  int result;
  while ((result = try_lock(lock)) == EBUSY) sched_yield();
  return result;
}

int WaitByPolling(sem_t* semaphore) {
  while (sem_trywait(semaphore) != 0) {
    if (errno != EAGAIN) return -1;
    sched_yield();
  }
  return 0;
}

// sem_trywait first. True when that settled the call, with `*result` what the wait returns;
// false when the semaphore is at zero, with errno as the caller left it. The waits are
// cancellation points even when the semaphore is free (glibc tests first), sem_trywait is not.
bool SettledByTryWait(sem_t* semaphore, int* result) {
  pthread_testcancel();
  const int saved_errno = errno;
  if (sem_trywait(semaphore) == 0) {
    *result = 0;
    return true;
  }
  if (errno != EAGAIN) {
    *result = -1;
    return true;
  }
  errno = saved_errno;
  return false;
}

}  // namespace

extern "C" PROF_EXPORT int pthread_mutex_lock(pthread_mutex_t* mutex) noexcept {
  const int tried = pthread_mutex_trylock(mutex);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_mutex_lock, LockByPolling(mutex, pthread_mutex_trylock), mutex);
}

extern "C" PROF_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* mutex,
                                                   const timespec* deadline) noexcept {
  const int tried = pthread_mutex_trylock(mutex);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_mutex_timedlock, ENOSYS, mutex, deadline);
}

extern "C" PROF_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* lock) noexcept {
  const int tried = pthread_rwlock_tryrdlock(lock);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_rwlock_rdlock, LockByPolling(lock, pthread_rwlock_tryrdlock),
                           lock);
}

extern "C" PROF_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* lock) noexcept {
  const int tried = pthread_rwlock_trywrlock(lock);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_rwlock_wrlock, LockByPolling(lock, pthread_rwlock_trywrlock),
                           lock);
}

extern "C" PROF_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t* lock,
                                                      const timespec* deadline) noexcept {
  const int tried = pthread_rwlock_tryrdlock(lock);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_rwlock_timedrdlock, ENOSYS, lock, deadline);
}

extern "C" PROF_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t* lock,
                                                      const timespec* deadline) noexcept {
  const int tried = pthread_rwlock_trywrlock(lock);
  if (tried != EBUSY) return tried;
  return PROF_OSRT_FORWARD(pthread_rwlock_timedwrlock, ENOSYS, lock, deadline);
}

extern "C" PROF_EXPORT int sem_wait(sem_t* semaphore) {
  int result;
  if (SettledByTryWait(semaphore, &result)) return result;
  return PROF_OSRT_FORWARD(sem_wait, WaitByPolling(semaphore), semaphore);
}

extern "C" PROF_EXPORT int sem_timedwait(sem_t* semaphore, const timespec* deadline) {
  int result;
  if (SettledByTryWait(semaphore, &result)) return result;
  return PROF_OSRT_FORWARD(sem_timedwait, prof::injection::osrt::Unavailable<int>(), semaphore,
                           deadline);
}

extern "C" PROF_EXPORT int sem_clockwait(sem_t* semaphore, clockid_t clock,
                                         const timespec* deadline) {
  int result;
  if (SettledByTryWait(semaphore, &result)) return result;
  return PROF_OSRT_FORWARD(sem_clockwait, prof::injection::osrt::Unavailable<int>(), semaphore,
                           clock, deadline);
}
