/* A program for CPU sampling tests: two hot functions in a 70/30 split of CPU time.
   Usage: sampled_program MODE [MS]
     split MS   the split for about MS ms of CPU time, then exit 0
     fork MS    the split in this process and in a fork child ("child=<pid>" on stdout)
     kill MS    the split, then SIGKILL to itself (no exit handlers, nothing flushed)
     sleep      20 sleeps of 10 ms (a thread that blocks) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double CpuMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

/* The loops' bodies are the same; their lengths make the split. */
__attribute__((noinline)) double hot_seventy(long n) {
  volatile double sum = 0;
  for (long i = 0; i < n; i++) sum += (double)i * 0.5;
  return sum;
}

__attribute__((noinline)) double hot_thirty(long n) {
  volatile double sum = 0;
  for (long i = 0; i < n; i++) sum += (double)i * 0.25;
  return sum;
}

static void Split(double ms) {
  const double end = CpuMs() + ms;
  double sum = 0;
  while (CpuMs() < end) {
    sum += hot_seventy(70000);
    sum += hot_thirty(30000);
  }
  if (sum < 0) puts("never");
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const double ms = argc > 2 ? atof(argv[2]) : 500;
  if (strcmp(argv[1], "split") == 0) {
    Split(ms);
  } else if (strcmp(argv[1], "fork") == 0) {
    const pid_t child = fork();
    if (child == 0) {
      Split(ms);
      _exit(0);
    }
    printf("child=%d\n", (int)child);
    fflush(stdout);
    Split(ms);
    int status = 0;
    waitpid(child, &status, 0);
  } else if (strcmp(argv[1], "kill") == 0) {
    Split(ms);
    raise(SIGKILL);
  } else if (strcmp(argv[1], "sleep") == 0) {
    const struct timespec pause = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 20; i++) nanosleep(&pause, NULL);
  } else {
    return 2;
  }
  return 0;
}
