// Cost per iteration of three loops of OS-runtime calls that are each shorter than the osrt
// threshold:
// - an uncontended pthread_mutex_lock/unlock pair: one interposed call (unlock is not traced),
//   settled by the try-lock, so it shows the cost of interposition without the clock;
// - pthread_cond_signal with no waiter: one interposed call that libc completes in a few ns
//   without a system call, so it isolates the cost of the timed fast path (two clock reads);
// - a 1-byte pipe write + read: two interposed system calls, the realistic case.
// Each loop runs `repetitions` times; the minimum and the median of the per-repetition averages
// are printed, one loop a line:
//   <loop> calls_per_iteration=<n> min_ns=<x> median_ns=<y>
// Usage: osrt_overhead_bench [iterations] [repetitions]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { kMaxRepetitions = 101 };

static double NowNs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

static double MutexLoop(long iterations) {
  static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  const double start = NowNs();
  for (long i = 0; i < iterations; ++i) {
    pthread_mutex_lock(&mutex);
    pthread_mutex_unlock(&mutex);
  }
  return (NowNs() - start) / (double)iterations;
}

static double CondSignalLoop(long iterations) {
  static pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
  const double start = NowNs();
  for (long i = 0; i < iterations; ++i) pthread_cond_signal(&condition);
  return (NowNs() - start) / (double)iterations;
}

static double PipeLoop(long iterations) {
  static int fds[2] = {-1, -1};
  if (fds[0] < 0 && pipe(fds) != 0) exit(1);
  char byte = 'x';
  const double start = NowNs();
  for (long i = 0; i < iterations; ++i) {
    if (write(fds[1], &byte, 1) != 1 || read(fds[0], &byte, 1) != 1) exit(1);
  }
  return (NowNs() - start) / (double)iterations;
}

static int CompareDoubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void Report(const char* name, int calls, double (*loop)(long), long iterations,
                   int repetitions) {
  double samples[kMaxRepetitions];
  loop(iterations / 10);  // warm up: resolve symbols, fault in pages
  for (int r = 0; r < repetitions; ++r) samples[r] = loop(iterations);
  qsort(samples, (size_t)repetitions, sizeof(samples[0]), CompareDoubles);
  printf("%s calls_per_iteration=%d min_ns=%.2f median_ns=%.2f\n", name, calls, samples[0],
         samples[repetitions / 2]);
}

int main(int argc, char** argv) {
  const long iterations = argc > 1 ? atol(argv[1]) : 2000000;
  int repetitions = argc > 2 ? atoi(argv[2]) : 9;
  if (iterations <= 0 || repetitions <= 0) return 2;
  if (repetitions > kMaxRepetitions) repetitions = kMaxRepetitions;
  Report("mutex_lock_unlock", 1, MutexLoop, iterations, repetitions);
  Report("cond_signal_no_waiter", 1, CondSignalLoop, iterations, repetitions);
  Report("pipe_write_read", 2, PipeLoop, iterations / 10, repetitions);
  return 0;
}
