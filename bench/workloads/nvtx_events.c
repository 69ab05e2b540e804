/* Workload nvtx_events: a run that yields `ranges` NVTX push/pop ranges (one report row each), to
   time the report end to end. `threads` threads emit at `rate` ranges per second in total, paced
   in chunks so the producer does not outrun a consumer that keeps that rate (0: as fast as
   possible, where back-pressure drops records). The last line is printed just before main returns,
   on CLOCK_MONOTONIC, so the runner can subtract it from the profiler's exit time:
     ranges=<n> threads=<t> rate=<r> emit_s=<x>
     peak_rss_kb=<k>
     start_monotonic_ns=<ns> exit_monotonic_ns=<ns>
   Usage: nvtx_events [ranges] [threads] [rate]   (defaults 10000000, 4, 2000000) */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdlib.h>

#include "workload_support.h"

enum { kMaxThreads = 64, kChunk = 1000 };

static long g_ranges_per_thread;
static double g_ns_per_range; /* per thread; 0 when unpaced */
static pthread_barrier_t g_start;

static void SleepUntil(int64_t deadline_ns) {
  const int64_t wait_ns = deadline_ns - BenchNowNs();
  if (wait_ns <= 0) return;
  const struct timespec wait = {wait_ns / 1000000000, wait_ns % 1000000000};
  nanosleep(&wait, NULL);
}

static void* Emit(void* unused) {
  pthread_barrier_wait(&g_start);
  const int64_t start = BenchNowNs();
  for (long done = 0; done < g_ranges_per_thread;) {
    for (int i = 0; i < kChunk && done < g_ranges_per_thread; ++i, ++done) {
      nvtxRangePushA("event");
      nvtxRangePop();
    }
    if (g_ns_per_range > 0) SleepUntil(start + (int64_t)((double)done * g_ns_per_range));
  }
  return unused;
}

int main(int argc, char** argv) {
  const int64_t program_start = BenchNowNs();
  const long ranges = argc > 1 ? atol(argv[1]) : 10000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  const double rate = argc > 3 ? atof(argv[3]) : 2000000.0;
  if (ranges <= 0 || threads <= 0 || threads > kMaxThreads || rate < 0) return 2;
  g_ranges_per_thread = ranges / threads;
  g_ns_per_range = rate > 0 ? 1e9 * threads / rate : 0;
  pthread_barrier_init(&g_start, NULL, (unsigned)threads);
  pthread_t ids[kMaxThreads];
  const int64_t emit_start = BenchNowNs();
  for (int t = 0; t < threads; ++t) pthread_create(&ids[t], NULL, Emit, NULL);
  for (int t = 0; t < threads; ++t) pthread_join(ids[t], NULL);
  printf("ranges=%ld threads=%d rate=%.0f emit_s=%.3f\n", g_ranges_per_thread * threads, threads,
         rate, (double)(BenchNowNs() - emit_start) / 1e9);
  BenchPrintPeakRss();
  printf("start_monotonic_ns=%lld exit_monotonic_ns=%lld\n", (long long)program_start,
         (long long)BenchNowNs());
  return 0;
}
