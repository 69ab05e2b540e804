/* Helpers shared by the suite's C workloads: CLOCK_MONOTONIC in ns (the clock bench/run.py reads
   for report-ready latency, so the two can be subtracted) and the peak RSS line every workload
   prints for the runner. */
#ifndef PROF_BENCH_WORKLOADS_WORKLOAD_SUPPORT_H_
#define PROF_BENCH_WORKLOADS_WORKLOAD_SUPPORT_H_

#include <stdint.h>
#include <stdio.h>
#include <time.h>

static inline int64_t BenchNowNs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* The program's own peak, measured inside it: the runner cannot separate it from prof's when it
   reaps prof (wait4's ru_maxrss is the maximum over the reaped tree). VmHWM, not getrusage's
   ru_maxrss, which Linux carries across execve from the forked launcher (python or prof). */
static inline void BenchPrintPeakRss(void) {
  FILE* status = fopen("/proc/self/status", "r");
  if (status == NULL) return;
  char line[256];
  long peak_kb = -1;
  while (peak_kb < 0 && fgets(line, sizeof line, status) != NULL)
    sscanf(line, "VmHWM: %ld", &peak_kb);
  fclose(status);
  if (peak_kb >= 0) printf("peak_rss_kb=%ld\n", peak_kb);
}

#endif  // PROF_BENCH_WORKLOADS_WORKLOAD_SUPPORT_H_
