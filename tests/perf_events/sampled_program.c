// The program perf_session_test samples. Built with frame pointers and without sibling calls, so
// the kernel's walk of its user stack passes through main. Modes (argv[1]):
//   tree OUT LIB  main thread burns ~300 ms of CPU in hot_a/hot_b (70/30, called straight from
//                 main), a thread burns ~100 ms, a forked child burns ~100 ms, LIB is dlopen'd and
//                 burns ~30 ms; then OUT gets "name value" lines: addresses of main/hot_a/hot_b,
//                 the pid, the thread's tid and the fork child's pid.
//   burn          burns ~150 ms in hot_a.
//   sleep         20 times: burns ~1 ms, sleeps 2 ms (the thread blocks: context switches).
//   kill          burns ~200 ms, then SIGKILLs itself.
// Burns are measured in this thread's CPU time, so they take as long on a loaded machine.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

int main(int argc, char** argv);

static long ThreadCpuMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Leaf loops: the sampled ip is inside them and their caller is the first return address. The
// local lives on the stack because GCC 12 gives a leaf function that needs no stack no frame
// (even with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer), and a frame pointer walk
// from such a function skips its caller.
__attribute__((noinline, noclone)) void hot_a(void) {
  volatile double x = sink;
  for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1.0;
  sink = x;
}

__attribute__((noinline, noclone)) void hot_b(void) {
  volatile double x = sink;
  for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1.0;
  sink = x;
}

static void BurnA(long ms) {
  const long end = ThreadCpuMs() + ms;
  while (ThreadCpuMs() < end) hot_a();
}

static void* ThreadMain(void* tid_out) {
  *(pid_t*)tid_out = gettid();
  BurnA(100);
  return NULL;
}

static int Tree(const char* out_path, const char* library) {
  void* handle = dlopen(library, RTLD_NOW);
  if (handle == NULL) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  void (*library_burn)(long) = (void (*)(long))dlsym(handle, "perf_library_burn");
  if (library_burn == NULL) return 1;
  library_burn(30);

  pid_t thread_tid = 0;
  pthread_t thread;
  if (pthread_create(&thread, NULL, ThreadMain, &thread_tid) != 0) return 1;
  const pid_t child = fork();
  if (child == 0) {
    BurnA(100);
    _exit(0);
  }
  // 7 calls of hot_a for 3 of hot_b: a 70/30 split of this thread's samples.
  const long end = ThreadCpuMs() + 300;
  while (ThreadCpuMs() < end) {
    for (int i = 0; i < 7; ++i) hot_a();
    for (int i = 0; i < 3; ++i) hot_b();
  }
  pthread_join(thread, NULL);
  int status = 0;
  waitpid(child, &status, 0);
  FILE* out = fopen(out_path, "w");
  if (out == NULL) return 1;
  fprintf(out, "main %lu\nhot_a %lu\nhot_b %lu\n", (unsigned long)(void*)main,
          (unsigned long)(void*)hot_a, (unsigned long)(void*)hot_b);
  fprintf(out, "pid %d\nthread %d\nfork %d\n", (int)getpid(), (int)thread_tid, (int)child);
  return fclose(out) == 0 && WIFEXITED(status) ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 4 && strcmp(argv[1], "tree") == 0) {
    return Tree(argv[2], argv[3]);
  }
  if (argc == 2 && strcmp(argv[1], "burn") == 0) {
    BurnA(150);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "sleep") == 0) {
    for (int i = 0; i < 20; ++i) {
      BurnA(1);
      usleep(2000);
    }
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "kill") == 0) {
    BurnA(200);
    raise(SIGKILL);
  }
  fprintf(stderr, "usage: %s tree OUT LIB | burn | sleep | kill\n", argv[0]);
  return 2;
}
