// One contended pthread_mutex_lock and 1000 uncontended ones. The main thread holds `held` while a
// waiter thread blocks on it for about 30 ms; the uncontended lock/unlock pairs never wait and must
// not be recorded. Prints the pid and the waiter's tid.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int waiter_started;
static pid_t waiter_tid;

static void* Waiter(void* unused) {
  (void)unused;
  waiter_tid = (pid_t)syscall(SYS_gettid);
  atomic_store(&waiter_started, 1);
  const int result = pthread_mutex_lock(&held);
  pthread_mutex_unlock(&held);
  return (void*)(long)result;
}

int main(void) {
  for (int i = 0; i < 1000; ++i) {
    pthread_mutex_lock(&free_lock);
    pthread_mutex_unlock(&free_lock);
  }
  pthread_mutex_lock(&held);
  pthread_t waiter;
  if (pthread_create(&waiter, NULL, Waiter, NULL) != 0) return 1;
  while (!atomic_load(&waiter_started)) {
  }
  usleep(30000);
  pthread_mutex_unlock(&held);
  void* result;
  pthread_join(waiter, &result);
  printf("pid=%d waiter_tid=%d\n", (int)getpid(), (int)waiter_tid);
  return result == NULL ? 0 : 1;
}
