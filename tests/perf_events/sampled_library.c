// A library the sampled program dlopens: its MMAP2 record must reach the session.
#include <time.h>

static volatile double sink;

void perf_library_burn(long ms) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  const long end = now.tv_sec * 1000 + now.tv_nsec / 1000000 + ms;
  long current;
  do {
    double x = sink;
    for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1.0;
    sink = x;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    current = now.tv_sec * 1000 + now.tv_nsec / 1000000;
  } while (current < end);
}
