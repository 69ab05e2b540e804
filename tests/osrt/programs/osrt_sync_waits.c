// A waiter thread blocks once on each kind of synchronisation while the main thread holds it for
// 20 ms: pthread_rwlock_wrlock (main holds a read lock), sem_wait (main posts), pthread_cond_wait
// (main signals). Then it lets a sem_timedwait time out (5 ms, -1/ETIMEDOUT) and sleeps 20 ms while
// the main thread blocks in pthread_join. 100 uncontended read locks and 100 sem_waits on a posted
// semaphore never wait and must not be recorded. Prints the pid and the waiter's tid; exits 1
// when a call returns something unexpected (errno included).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static sem_t zero_semaphore;
static sem_t posted_semaphore;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
static int ready;
static atomic_int phase;  // the waiter's next blocking phase, published right before it blocks
static pid_t waiter_tid;

static void WaitForPhase(int expected) {
  while (atomic_load(&phase) != expected) {
  }
}

static void* Waiter(void* unused) {
  (void)unused;
  int failures = 0;
  waiter_tid = (pid_t)syscall(SYS_gettid);
  atomic_store(&phase, 1);
  failures += pthread_rwlock_wrlock(&rwlock) != 0;
  pthread_rwlock_unlock(&rwlock);
  atomic_store(&phase, 2);
  failures += sem_wait(&zero_semaphore) != 0;
  pthread_mutex_lock(&mutex);
  atomic_store(&phase, 3);
  while (!ready) failures += pthread_cond_wait(&condition, &mutex) != 0;
  pthread_mutex_unlock(&mutex);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_nsec += 5000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  errno = 0;
  failures += !(sem_timedwait(&zero_semaphore, &deadline) == -1 && errno == ETIMEDOUT);
  usleep(20000);
  return (void*)(long)failures;
}

int main(void) {
  int failures = 0;
  sem_init(&zero_semaphore, 0, 0);
  sem_init(&posted_semaphore, 0, 100);
  for (int i = 0; i < 100; ++i) {
    failures += sem_wait(&posted_semaphore) != 0;
    failures += pthread_rwlock_rdlock(&rwlock) != 0;
    pthread_rwlock_unlock(&rwlock);
  }
  pthread_rwlock_rdlock(&rwlock);
  pthread_t waiter;
  if (pthread_create(&waiter, NULL, Waiter, NULL) != 0) return 1;
  WaitForPhase(1);
  usleep(20000);
  pthread_rwlock_unlock(&rwlock);
  WaitForPhase(2);
  usleep(20000);
  sem_post(&zero_semaphore);
  WaitForPhase(3);
  usleep(20000);
  pthread_mutex_lock(&mutex);
  ready = 1;
  pthread_cond_signal(&condition);
  pthread_mutex_unlock(&mutex);
  void* waiter_failures;
  failures += pthread_join(waiter, &waiter_failures) != 0;
  printf("pid=%d waiter_tid=%d\n", (int)getpid(), (int)waiter_tid);
  return failures == 0 && waiter_failures == NULL ? 0 : 1;
}
