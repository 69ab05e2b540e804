/* Workload nvtx_cpu: NVTX-heavy CPU loop. `pairs` push/pop pairs in total, split over `threads`
   threads, nested two deep ("outer" around "inner"), back to back, or with `gap_ns` > 0 one
   "outer"/"inner" iteration every `gap_ns` (the thread spins in between, untimed): a steady stream,
   as a training loop's NVTX ranges and API calls are, which the collector keeps up with. Prints
   the cost per pair (the threads' timed loop summed, divided by the pairs: what one pair costs the
   thread that makes it) and the program's peak RSS:
     ns_per_pair=<x> pairs=<n> threads=<t>
     peak_rss_kb=<k>
   Usage: nvtx_cpu [pairs] [threads] [gap_ns]   (defaults 1000000, 4 and 0) */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdlib.h>

#include "workload_support.h"

enum { kMaxThreads = 64 };

static long g_pairs_per_thread;
static int64_t g_gap_ns;
static pthread_barrier_t g_start;

static void* Loop(void* result) {
  pthread_barrier_wait(&g_start); /* all threads produce at once, as in a real program */
  int64_t timed_ns = 0;
  int64_t start = BenchNowNs();
  for (long i = 0; i < g_pairs_per_thread; i += 2) {
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    nvtxRangePop();
    nvtxRangePop();
    if (g_gap_ns > 0) {
      timed_ns += BenchNowNs() - start;
      while (BenchNowNs() - start < g_gap_ns) {
      }
      start = BenchNowNs();
    }
  }
  *(int64_t*)result = timed_ns + (BenchNowNs() - start);
  return NULL;
}

int main(int argc, char** argv) {
  const long pairs = argc > 1 ? atol(argv[1]) : 1000000;
  const int threads = argc > 2 ? atoi(argv[2]) : 4;
  g_gap_ns = argc > 3 ? atol(argv[3]) : 0;
  if (pairs <= 0 || threads <= 0 || threads > kMaxThreads || g_gap_ns < 0) return 2;
  g_pairs_per_thread = (pairs / threads + 1) & ~1L; /* even: two pairs per iteration */
  nvtxRangePushA("warmup"); /* loads the injection before any thread is timed */
  nvtxRangePop();
  pthread_barrier_init(&g_start, NULL, (unsigned)threads);
  pthread_t ids[kMaxThreads];
  int64_t loop_ns[kMaxThreads];
  for (int t = 0; t < threads; ++t) pthread_create(&ids[t], NULL, Loop, &loop_ns[t]);
  int64_t total_ns = 0;
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    total_ns += loop_ns[t];
  }
  const long made = g_pairs_per_thread * threads;
  printf("ns_per_pair=%.2f pairs=%ld threads=%d\n", (double)total_ns / (double)made, made, threads);
  BenchPrintPeakRss();
  return 0;
}
