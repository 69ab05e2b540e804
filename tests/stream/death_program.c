/* Programs that end abruptly right after a burst of NVTX ranges, for the exact-capture tests
 * (tracing with --trace=nvtx). Each pushes a range "lifetime" it never pops, emits N push/pop
 * ranges "burst" and then:
 *   death_program segv N          dies of SIGSEGV (default action)
 *   death_program abort N         abort() (SIGABRT)
 *   death_program thread_exit N   a second thread emits the burst and calls _exit(3)
 *   death_program sigterm N       raise(SIGTERM)
 *   death_program sigkill N       raise(SIGKILL)
 *   death_program wait N FILE     creates FILE, then waits to be killed by another process
 *   death_program fork N          a fork child emits the burst and _exit(0)s at once; the parent
 *                                 waits for it and returns 0 without emitting
 *   death_program closefrom N     closefrom(3), the burst, closefrom(3) again, another burst,
 *                                 then _exit(0): 2N ranges
 *   death_program dup2 N          the burst, /dev/null dup2'ed over descriptors 3..1023, another
 *                                 burst, then exit(0): 2N ranges
 *   death_program threads N T     closefrom(3), then T threads, all alive at once, each emit the
 *                                 burst; joined, then exit(0): T x N ranges
 *   death_program threads_open N T  the same with the descriptors left open
 *   death_program deep N          N ranges "deep", each nested in the one before, popped, then the
 *                                 burst and exit(0) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long burst;

static void Burst(void) {
  for (long i = 0; i < burst; ++i) {
    nvtxRangePushA("burst");
    nvtxRangePop();
  }
}

static pthread_barrier_t all_started;

static void* BurstOnceAllStarted(void* unused) {
  pthread_barrier_wait(&all_started);
  Burst();
  return unused;
}

/* T threads alive at once, so that each needs a ring of its own: 1,000 need 63 segments. */
static int Threads(int closed, long threads) {
  if (closed) closefrom(3);
  pthread_t* ids = calloc((size_t)threads, sizeof(pthread_t));
  if (ids == NULL || pthread_barrier_init(&all_started, NULL, (unsigned)threads) != 0) return 1;
  for (long i = 0; i < threads; ++i) {
    /* Small stacks: 1,000 threads of 8 MiB would reserve 8 GB of address space. */
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    if (pthread_create(&ids[i], &attributes, BurstOnceAllStarted, NULL) != 0) return 1;
    pthread_attr_destroy(&attributes);
  }
  for (long i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
  free(ids);
  exit(0);
}

static void* BurstThenExit(void* unused) {
  Burst();
  _exit(3);
  return unused;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  burst = atol(argv[2]);
  nvtxRangePushA("lifetime");
  if (strcmp(mode, "thread_exit") == 0) {
    pthread_t thread;
    pthread_create(&thread, NULL, BurstThenExit, NULL);
    pthread_join(thread, NULL);
    return 1; /* not reached */
  }
  if (strcmp(mode, "fork") == 0) {
    const pid_t child = fork();
    if (child == 0) {
      Burst();
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  if (strcmp(mode, "threads") == 0 && argc > 3) return Threads(1, atol(argv[3]));
  if (strcmp(mode, "threads_open") == 0 && argc > 3) return Threads(0, atol(argv[3]));
  if (strcmp(mode, "deep") == 0) {
    for (long i = 0; i < burst; ++i) nvtxRangePushA("deep");
    for (long i = 0; i < burst; ++i) nvtxRangePop();
    Burst();
    exit(0);
  }
  if (strcmp(mode, "closefrom") == 0) {
    closefrom(3);
    Burst();
    closefrom(3);
    Burst();
    _exit(0);
  }
  Burst();
  if (strcmp(mode, "segv") == 0) {
    /* SIGSEGV with its default action, as a fault without a handler ends a program. Raised rather
     * than caused: a sanitizer would report a null store as an error and exit instead. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
  } else if (strcmp(mode, "abort") == 0) {
    abort();
  } else if (strcmp(mode, "sigterm") == 0) {
    raise(SIGTERM);
  } else if (strcmp(mode, "sigkill") == 0) {
    raise(SIGKILL);
  } else if (strcmp(mode, "wait") == 0 && argc > 3) {
    close(open(argv[3], O_CREAT | O_WRONLY, 0600));
    for (;;) pause();
  } else if (strcmp(mode, "dup2") == 0) {
    const int null = open("/dev/null", O_RDWR);
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != null) dup2(null, fd);
    }
    Burst();
    exit(0);
  }
  return 2;
}
