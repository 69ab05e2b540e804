/* Workload cpu_loop: a CPU-bound C loop (two functions, 70/30 of the time, frame pointers kept),
   a fixed amount of work. Prints the CPU time it used, which sampling's interrupts add to:
     cpu_s=<seconds>
   Usage: cpu_loop [rounds]   (default 600: about 1.6 s on the build machine) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

__attribute__((noinline)) static double HotSeventy(long n) {
  volatile double sum = 0;
  for (long i = 0; i < n; i++) sum += (double)i * 0.5;
  return sum;
}

__attribute__((noinline)) static double HotThirty(long n) {
  volatile double sum = 0;
  for (long i = 0; i < n; i++) sum += (double)i * 0.25;
  return sum;
}

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? atol(argv[1]) : 600;
  double sum = 0;
  for (long k = 0; k < rounds; k++) sum += HotSeventy(700000) + HotThirty(300000);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  const double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
                     (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
  printf("cpu_s=%.4f\n", cpu);
  return sum < 0;
}
