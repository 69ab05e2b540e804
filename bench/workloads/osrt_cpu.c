/* Workload osrt_cpu: OS-runtime-heavy CPU loop on `threads` threads, four phases in lock-step
   (a barrier between them), each timed per operation (the threads' phase times summed, divided by
   the operations made):
   - uncontended_lock_ns: lock/unlock of the thread's own mutex (`iterations` per thread), the
     filtered call the budget's ~7 ns per lock pair is stated for;
   - contended_lock_ns: lock/unlock of one mutex all threads share (iterations / 10);
   - pipe_rw_ns: a 1-byte write + read on the thread's own pipe (iterations / 10), two system calls
     shorter than the default threshold;
   - sleep_ns: nanosleep(1 us) (iterations / 1000), calls long enough to be recorded;
     sleep_median_ns: the median of those sleeps, each timed on its own (a profiler whose threads
     take the core a waking thread needs delays a few sleeps by far more than the rest).
   Prints one line of the five, then the program's peak RSS:
     uncontended_lock_ns=<x> contended_lock_ns=<x> pipe_rw_ns=<x> sleep_ns=<x>
       sleep_median_ns=<x> threads=<t>
     peak_rss_kb=<k>
   Usage: osrt_cpu [iterations] [threads]   (defaults 1000000 and 4) */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload_support.h"

enum { kMaxThreads = 64, kPhases = 4 };

static long g_iterations;
static pthread_barrier_t g_phase;
static pthread_mutex_t g_shared = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
  int64_t phase_ns[kPhases];
  int64_t* sleep_ns; /* each sleep's duration */
} ThreadTimes;

static void LockLoop(pthread_mutex_t* mutex, long count) {
  for (long i = 0; i < count; ++i) {
    pthread_mutex_lock(mutex);
    pthread_mutex_unlock(mutex);
  }
}

static void PipeLoop(const int fds[2], long count) {
  char byte = 'x';
  for (long i = 0; i < count; ++i) {
    if (write(fds[1], &byte, 1) != 1 || read(fds[0], &byte, 1) != 1) exit(1);
  }
}

static void SleepLoop(long count, int64_t* durations) {
  const struct timespec one_us = {0, 1000};
  for (long i = 0; i < count; ++i) {
    const int64_t start = BenchNowNs();
    nanosleep(&one_us, NULL);
    durations[i] = BenchNowNs() - start;
  }
}

static int CompareNs(const void* a, const void* b) {
  const int64_t x = *(const int64_t*)a;
  const int64_t y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

static long PhaseCount(int phase) {
  static const long kDivisor[kPhases] = {1, 10, 10, 1000};
  const long count = g_iterations / kDivisor[phase];
  return count > 0 ? count : 1;
}

static void RunPhase(int phase, pthread_mutex_t* own, const int fds[2], int64_t* sleep_ns) {
  const long count = PhaseCount(phase);
  switch (phase) {
    case 0:
      LockLoop(own, count);
      break;
    case 1:
      LockLoop(&g_shared, count);
      break;
    case 2:
      PipeLoop(fds, count);
      break;
    default:
      SleepLoop(count, sleep_ns);
      break;
  }
}

static void* Worker(void* result) {
  ThreadTimes* times = result;
  pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
  int fds[2];
  if (pipe(fds) != 0) exit(1);
  for (int phase = 0; phase < kPhases; ++phase) {
    pthread_barrier_wait(&g_phase);
    const int64_t start = BenchNowNs();
    RunPhase(phase, &own, fds, times->sleep_ns);
    times->phase_ns[phase] = BenchNowNs() - start;
  }
  close(fds[0]);
  close(fds[1]);
  return NULL;
}

int main(int argc, char** argv) {
  g_iterations = argc > 1 ? atol(argv[1]) : 1000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  if (g_iterations <= 0 || threads <= 0 || threads > kMaxThreads) return 2;
  pthread_barrier_init(&g_phase, NULL, (unsigned)threads);
  pthread_t ids[kMaxThreads];
  ThreadTimes times[kMaxThreads];
  const long sleeps = PhaseCount(kPhases - 1);
  int64_t* sleep_ns = malloc(sizeof(int64_t) * (size_t)(sleeps * threads));
  if (sleep_ns == NULL) return 1;
  for (int t = 0; t < threads; ++t) {
    times[t].sleep_ns = sleep_ns + sleeps * t;
    pthread_create(&ids[t], NULL, Worker, &times[t]);
  }
  double per_op[kPhases] = {0};
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    for (int phase = 0; phase < kPhases; ++phase) per_op[phase] += (double)times[t].phase_ns[phase];
  }
  for (int phase = 0; phase < kPhases; ++phase)
    per_op[phase] /= (double)(PhaseCount(phase) * threads);
  qsort(sleep_ns, (size_t)(sleeps * threads), sizeof(int64_t), CompareNs);
  printf(
      "uncontended_lock_ns=%.2f contended_lock_ns=%.2f pipe_rw_ns=%.2f sleep_ns=%.0f "
      "sleep_median_ns=%lld threads=%d\n",
      per_op[0], per_op[1], per_op[2], per_op[3], (long long)sleep_ns[sleeps * threads / 2],
      threads);
  free(sleep_ns);
  BenchPrintPeakRss();
  return 0;
}
