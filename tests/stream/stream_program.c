/* A program with known behaviour for the record-stream tests (tracing with --trace=nvtx):
 *   stream_program flood THREADS N   THREADS threads each emit N NVTX marks "flood" at full speed
 *   stream_program paced THREADS N R THREADS threads each push/pop N ranges "paced", R per second
 *   stream_program ranges THREADS MS THREADS threads push/pop ranges "flood" (nested in "outer")
 *                                    at full speed for MS milliseconds; prints how many in all
 *   stream_program names             names threads through prctl and pthread_setname_np
 *   stream_program fork              fork() without exec: parent and child each mark once
 *   stream_program exec              fork()+exec of itself as "stream_program child"
 *   stream_program child             marks "child" once
 *   stream_program stall N           stops its parent (prof) with SIGSTOP, emits N NVTX marks
 *                                    "stall" (more than its rings hold, so some are dropped),
 *                                    continues the parent, sleeps 3 s, writes "program done" to
 *                                    stderr */
#define _GNU_SOURCE
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long marks_per_thread;

static void* Flood(void* unused) {
  for (long i = 0; i < marks_per_thread; ++i) nvtxMarkA("flood");
  return NULL;
}

static int RunFlood(int threads, long marks) {
  pthread_t ids[64];
  marks_per_thread = marks;
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, Flood, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
  return 0;
}

static double ns_per_range;

static long long NowNs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* In chunks of 100 ranges, each started no earlier than its place in the schedule. */
static void* Paced(void* unused) {
  const long long start = NowNs();
  for (long done = 0; done < marks_per_thread;) {
    for (int i = 0; i < 100 && done < marks_per_thread; ++i, ++done) {
      nvtxRangePushA("paced");
      nvtxRangePop();
    }
    const long long wait_ns = start + (long long)(done * ns_per_range) - NowNs();
    if (wait_ns > 0) {
      const struct timespec wait = {wait_ns / 1000000000, wait_ns % 1000000000};
      nanosleep(&wait, NULL);
    }
  }
  return unused;
}

static int RunPaced(int threads, long ranges, double rate) {
  pthread_t ids[64];
  marks_per_thread = ranges;
  ns_per_range = 1e9 / rate;
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, Paced, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
  return 0;
}

static long long flood_until_ns;

/* Ranges until the deadline, checking the clock every 1,000; returns the count. */
static void* FloodRanges(void* unused) {
  long count = 0;
  nvtxRangePushA("outer");
  while (NowNs() < flood_until_ns) {
    for (int i = 0; i < 1000; ++i) {
      nvtxRangePushA("flood");
      nvtxRangePop();
    }
    count += 1000;
  }
  nvtxRangePop();
  return (void*)count;
}

static int RunRangeFlood(int threads, long milliseconds) {
  pthread_t ids[64];
  flood_until_ns = NowNs() + milliseconds * 1000000LL;
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, FloodRanges, NULL);
  long total = 0;
  for (int i = 0; i < threads; ++i) {
    void* count;
    pthread_join(ids[i], &count);
    total += (long)count;
  }
  printf("%ld\n", total);
  return 0;
}

static pthread_barrier_t all_marked; /* both workers and main have emitted */
static pthread_barrier_t b_named;    /* main has named worker b */

static void* NameSelf(void* unused) {
  nvtxMarkA("worker-a starts");
  pthread_setname_np(pthread_self(), "worker-a");
  pthread_barrier_wait(&all_marked);
  return NULL;
}

static void* WaitToBeNamed(void* unused) {
  nvtxMarkA("worker-b starts");
  pthread_barrier_wait(&all_marked);
  pthread_barrier_wait(&b_named);
  return NULL;
}

static int RunNames(void) {
  nvtxMarkA("main starts");
  prctl(PR_SET_NAME, "renamed-main", 0, 0, 0);
  pthread_barrier_init(&all_marked, NULL, 3);
  pthread_barrier_init(&b_named, NULL, 2);
  pthread_t a, b;
  pthread_create(&a, NULL, NameSelf, NULL);
  pthread_create(&b, NULL, WaitToBeNamed, NULL);
  pthread_barrier_wait(&all_marked);
  pthread_setname_np(b, "worker-b");
  pthread_barrier_wait(&b_named);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}

static int RunFork(void) {
  nvtxMarkA("before fork");
  pid_t child = fork();
  if (child == 0) {
    nvtxMarkA("forked child");
    exit(0);
  }
  waitpid(child, NULL, 0);
  nvtxMarkA("parent");
  return 0;
}

static int RunExec(const char* self) {
  pid_t child = fork();
  if (child == 0) {
    execl(self, self, "child", (char*)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  nvtxMarkA("parent");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int RunStall(long marks) {
  const pid_t prof = getppid();
  kill(prof, SIGSTOP);
  for (long i = 0; i < marks; ++i) nvtxMarkA("stall");
  kill(prof, SIGCONT);
  sleep(3);
  fputs("program done\n", stderr);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 4 && strcmp(argv[1], "flood") == 0) return RunFlood(atoi(argv[2]), atol(argv[3]));
  if (argc >= 5 && strcmp(argv[1], "paced") == 0) {
    return RunPaced(atoi(argv[2]), atol(argv[3]), atof(argv[4]));
  }
  if (argc >= 4 && strcmp(argv[1], "ranges") == 0) {
    return RunRangeFlood(atoi(argv[2]), atol(argv[3]));
  }
  if (argc >= 3 && strcmp(argv[1], "stall") == 0) return RunStall(atol(argv[2]));
  if (argc >= 2 && strcmp(argv[1], "names") == 0) return RunNames();
  if (argc >= 2 && strcmp(argv[1], "fork") == 0) return RunFork();
  if (argc >= 2 && strcmp(argv[1], "exec") == 0) return RunExec(argv[0]);
  if (argc >= 2 && strcmp(argv[1], "child") == 0) {
    nvtxMarkA("child");
    return 0;
  }
  return 2;
}
