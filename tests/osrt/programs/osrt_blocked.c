// A program whose threads block in OS-runtime calls from known stacks (built with frame
// pointers), for the backtrace tests (docs/osrt.md, "Backtraces"):
//   osrt_blocked loop N       main -> step -> wait_for_input -> poll(NULL, 0, 6 ms), N times, and
//                             poll(NULL, 0, 0) N times from main
//   osrt_blocked fork N       the same loop in a fork child, whose pid is printed (child=)
//   osrt_blocked kill N       the loop, then SIGKILL to itself
//   osrt_blocked flood N      N poll(NULL, 0, 0) calls from each of 2 threads, as fast as they go
// Prints pid= first.
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static void wait_for_input(void) {
  poll(NULL, 0, 6);
  __asm__ volatile("" ::: "memory");  // no tail call: the function keeps its frame
}

__attribute__((noinline)) static void step(void) {
  wait_for_input();
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void blocking_loop(int count) {
  for (int i = 0; i < count; ++i) {
    step();
    poll(NULL, 0, 0);
  }
}

static void* flood(void* count) {
  for (long i = 0; i < (long)count; ++i) poll(NULL, 0, 0);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const int count = atoi(argv[2]);
  printf("pid=%d\n", (int)getpid());
  fflush(stdout);
  if (strcmp(argv[1], "loop") == 0) {
    blocking_loop(count);
  } else if (strcmp(argv[1], "fork") == 0) {
    const pid_t child = fork();
    if (child == 0) {
      blocking_loop(count);
      _exit(0);
    }
    printf("child=%d\n", (int)child);
    fflush(stdout);
    waitpid(child, NULL, 0);
  } else if (strcmp(argv[1], "kill") == 0) {
    blocking_loop(count);
    raise(SIGKILL);
  } else if (strcmp(argv[1], "flood") == 0) {
    pthread_t threads[2];
    for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, flood, (void*)(long)count);
    for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  } else {
    return 2;
  }
  return 0;
}
