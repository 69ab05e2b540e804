// The program timer_sampling_session_test runs with libprof_core preloaded and the fallback CPU
// sampler on. Built with frame pointers and without sibling calls, so that the sampler's walk goes
// through the start routines and main. Modes (argv[1]), each writing "name value" lines to OUT:
//   split OUT      two threads burn 700 ms and 300 ms of their own CPU time at once, in
//                  hot_seventy (called from seventy_thread) and hot_thirty (from thirty_thread);
//                  OUT: the functions' addresses, the threads' tids and CPU times (ns).
//   fork OUT       a forked child burns 300 ms; OUT: its pid and CPU time (from wait4).
//   kill OUT       burns 300 ms, writes OUT (pid, CPU time), then SIGKILLs itself.
//   sleep OUT      sleeps 10 x 50 ms; OUT: the process's CPU time.
//   handlers OUT   OUT: how many of SIGPROF and the real-time signals have a handler, and the
//                  first such signal (0 when none).
//   errno OUT      a thread fails close(-1) in a loop for 300 ms of CPU time, burning between the
//                  call and the look at errno; OUT: calls, calls whose errno was not EBADF, tid.
//   bench OUT N    sends itself N timer signals (si_code SI_TIMER) on prof's sampling signal from 10
//                  frames deep, then N on a free signal with an empty handler; OUT: ns per signal of
//                  each.
//   reset OUT      resets every signal's disposition to SIG_DFL (signal(), sysv_signal() and
//                  sigaction(), as daemons do), burns 300 ms, then handles every real-time signal
//                  and sends each to itself with kill(); OUT: signals sent, handler calls, CPU
//                  time, how many old actions sigaction reported as SIG_DFL then.
//   foreign OUT    sends itself prof's sampling signal with kill(), its disposition never set by
//                  the program: it dies of it, as it would without prof.
//   restore OUT    saves the sampling signal's action (prof's handler), sets SIG_IGN, puts the
//                  saved one back and sends itself the signal: it dies of it (no wish of its own).
//   ignore OUT     sets SIG_IGN on the sampling signal with SA_SIGINFO, sends itself the signal,
//                  burns 100 ms and exits 0.
//   own_timer OUT  handles prof's sampling signal and makes a POSIX timer of its own that sends it
//                  every millisecond of the process's CPU time, burns 300 ms; OUT: handler calls.
//   (restore, ignore and own_timer write the signal to OUT first.)
// Burns are measured in the thread's CPU time, so they take as long on a loaded machine.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

int main(int argc, char** argv);

static long long CpuNs(clockid_t clock) {
  struct timespec now;
  clock_gettime(clock, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static long long MonotonicNs(void) { return CpuNs(CLOCK_MONOTONIC); }

// Leaf loops with a frame (the local lives on the stack), so the walk from inside them reaches
// their caller: GCC 12 gives a leaf function that needs no stack no frame.
__attribute__((noinline, noclone)) void hot_seventy(void) {
  volatile double x = sink;
  for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1.0;
  sink = x;
}

__attribute__((noinline, noclone)) void hot_thirty(void) {
  volatile double x = sink;
  for (int i = 0; i < 20000; ++i) x = x * 1.0000001 + 1.0;
  sink = x;
}

struct Burner {
  long ms;
  pid_t tid;
  long long cpu_ns;
};

__attribute__((noinline, noclone)) void* seventy_thread(void* argument) {
  struct Burner* burner = argument;
  burner->tid = gettid();
  const long long end = CpuNs(CLOCK_THREAD_CPUTIME_ID) + burner->ms * 1000000LL;
  while (CpuNs(CLOCK_THREAD_CPUTIME_ID) < end) hot_seventy();
  burner->cpu_ns = CpuNs(CLOCK_THREAD_CPUTIME_ID);
  return NULL;
}

__attribute__((noinline, noclone)) void* thirty_thread(void* argument) {
  struct Burner* burner = argument;
  burner->tid = gettid();
  const long long end = CpuNs(CLOCK_THREAD_CPUTIME_ID) + burner->ms * 1000000LL;
  while (CpuNs(CLOCK_THREAD_CPUTIME_ID) < end) hot_thirty();
  burner->cpu_ns = CpuNs(CLOCK_THREAD_CPUTIME_ID);
  return NULL;
}

static FILE* Open(const char* path) {
  FILE* out = fopen(path, "w");
  if (out == NULL) {
    perror(path);
    exit(1);
  }
  return out;
}

static int Split(const char* path) {
  struct Burner seventy = {700, 0, 0};
  struct Burner thirty = {300, 0, 0};
  pthread_t threads[2];
  if (pthread_create(&threads[0], NULL, seventy_thread, &seventy) != 0 ||
      pthread_create(&threads[1], NULL, thirty_thread, &thirty) != 0) {
    return 1;
  }
  pthread_join(threads[0], NULL);
  pthread_join(threads[1], NULL);
  FILE* out = Open(path);
  fprintf(out, "main %p\nseventy_thread %p\nthirty_thread %p\n", (void*)main, (void*)seventy_thread,
          (void*)thirty_thread);
  fprintf(out, "hot_seventy %p\nhot_thirty %p\n", (void*)hot_seventy, (void*)hot_thirty);
  fprintf(out, "tid_seventy %d\ntid_thirty %d\n", seventy.tid, thirty.tid);
  fprintf(out, "cpu_seventy %lld\ncpu_thirty %lld\n", seventy.cpu_ns, thirty.cpu_ns);
  fclose(out);
  return 0;
}

static void BurnMs(long ms) {
  const long long end = CpuNs(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000LL;
  while (CpuNs(CLOCK_THREAD_CPUTIME_ID) < end) hot_seventy();
}

static int Fork(const char* path) {
  const pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    BurnMs(300);
    exit(0);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(child, &status, 0, &usage) != child || !WIFEXITED(status)) return 1;
  const long long cpu_ns = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000LL +
                           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000LL;
  FILE* out = Open(path);
  fprintf(out, "child %d\ncpu_child %lld\n", child, cpu_ns);
  fclose(out);
  return 0;
}

static int Kill(const char* path) {
  BurnMs(300);
  FILE* out = Open(path);
  fprintf(out, "pid %d\ncpu %lld\nkill_time %lld\n", getpid(), CpuNs(CLOCK_PROCESS_CPUTIME_ID),
          MonotonicNs());
  fclose(out);
  kill(getpid(), SIGKILL);
  return 1;
}

static int Sleep(const char* path) {
  for (int i = 0; i < 10; ++i) {
    const struct timespec interval = {0, 50000000};
    nanosleep(&interval, NULL);
  }
  FILE* out = Open(path);
  fprintf(out, "cpu %lld\n", CpuNs(CLOCK_PROCESS_CPUTIME_ID));
  fclose(out);
  return 0;
}

// The first signal among SIGPROF and the real-time ones with a handler; counts them in *count.
static int HandledSignal(int* count) {
  int first = 0;
  *count = 0;
  for (int signal_number = SIGPROF; signal_number <= SIGRTMAX; ++signal_number) {
    if (signal_number != SIGPROF && signal_number < SIGRTMIN) continue;
    struct sigaction current;
    if (sigaction(signal_number, NULL, &current) != 0) continue;
    if (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN) continue;
    ++*count;
    if (first == 0) first = signal_number;
  }
  return first;
}

static int Handlers(const char* path) {
  int count = 0;
  const int first = HandledSignal(&count);
  FILE* out = Open(path);
  fprintf(out, "handled %d\nsignal %d\n", count, first);
  fclose(out);
  return 0;
}

struct ErrnoLoop {
  pid_t tid;
  long long calls;
  long long clobbered;
};

static void* ErrnoThread(void* argument) {
  struct ErrnoLoop* loop = argument;
  loop->tid = gettid();
  const long long end = CpuNs(CLOCK_THREAD_CPUTIME_ID) + 300000000LL;
  while (CpuNs(CLOCK_THREAD_CPUTIME_ID) < end) {
    errno = 0;
    if (close(-1) == 0) continue;
    volatile double x = sink;
    for (int i = 0; i < 200; ++i) x = x * 1.0000001 + 1.0;
    sink = x;
    ++loop->calls;
    if (errno != EBADF) ++loop->clobbered;
  }
  return NULL;
}

static int Errno(const char* path) {
  struct ErrnoLoop loop = {0, 0, 0};
  pthread_t thread;
  if (pthread_create(&thread, NULL, ErrnoThread, &loop) != 0) return 1;
  pthread_join(thread, NULL);
  FILE* out = Open(path);
  fprintf(out, "tid %d\ncalls %lld\nclobbered %lld\n", loop.tid, loop.calls, loop.clobbered);
  fclose(out);
  return 0;
}

static volatile sig_atomic_t handler_calls;

static void CountingHandler(int signal_number) {
  (void)signal_number;
  ++handler_calls;
}

static int Reset(const char* path) {
  for (int signal_number = 1; signal_number <= SIGRTMAX; ++signal_number) {
    if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
    signal(signal_number, SIG_DFL);
    sysv_signal(signal_number, SIG_DFL);
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_DFL;
    sigaction(signal_number, &action, NULL);
  }
  BurnMs(300);
  const long long cpu_ns = CpuNs(CLOCK_PROCESS_CPUTIME_ID);
  int sent = 0;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = CountingHandler;
  int old_default = 0;
  for (int signal_number = SIGRTMIN; signal_number <= SIGRTMAX; ++signal_number) {
    struct sigaction old_action;
    if (sigaction(signal_number, &action, &old_action) != 0) return 1;
    old_default += old_action.sa_handler == SIG_DFL;
    kill(getpid(), signal_number);
    ++sent;
  }
  FILE* out = Open(path);
  fprintf(out, "sent %d\ncalls %d\ncpu_ns %lld\nold_default %d\n", sent, (int)handler_calls, cpu_ns,
          old_default);
  fclose(out);
  return 0;
}

static int Foreign(const char* path) {
  int handled = 0;
  const int prof_signal = HandledSignal(&handled);
  FILE* out = Open(path);
  fprintf(out, "signal %d\n", prof_signal);
  fclose(out);
  if (prof_signal == 0) return 1;
  kill(getpid(), prof_signal);
  BurnMs(100);
  return 0;
}

// Writes prof's sampling signal (0: none) to OUT and returns it.
static int WriteProfSignal(const char* path) {
  int handled = 0;
  const int prof_signal = HandledSignal(&handled);
  FILE* out = Open(path);
  fprintf(out, "signal %d\n", prof_signal);
  fclose(out);
  return prof_signal;
}

static int Restore(const char* path) {
  const int prof_signal = WriteProfSignal(path);
  if (prof_signal == 0) return 1;
  struct sigaction saved;
  struct sigaction ignore;
  memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  if (sigaction(prof_signal, NULL, &saved) != 0 || sigaction(prof_signal, &ignore, NULL) != 0 ||
      sigaction(prof_signal, &saved, NULL) != 0) {
    return 1;
  }
  kill(getpid(), prof_signal);
  BurnMs(100);
  return 0;
}

static int Ignore(const char* path) {
  const int prof_signal = WriteProfSignal(path);
  if (prof_signal == 0) return 1;
  struct sigaction ignore;
  memset(&ignore, 0, sizeof(ignore));
  ignore.sa_flags = SA_SIGINFO;
  ignore.sa_handler = SIG_IGN; /* the union's other member: sa_sigaction reads as SIG_IGN too */
  if (sigaction(prof_signal, &ignore, NULL) != 0) return 1;
  kill(getpid(), prof_signal);
  BurnMs(100);
  return 0;
}

static int OwnTimer(const char* path) {
  const int prof_signal = WriteProfSignal(path);
  if (prof_signal == 0) return 1;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = CountingHandler;
  action.sa_flags = SA_RESTART;
  if (sigaction(prof_signal, &action, NULL) != 0) return 1;
  struct sigevent event;
  memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = prof_signal;
  timer_t timer;
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &event, &timer) != 0) return 1;
  const struct itimerspec every_ms = {{0, 1000000}, {0, 1000000}};
  if (timer_settime(timer, 0, &every_ms, NULL) != 0) return 1;
  BurnMs(300);
  timer_delete(timer);
  FILE* out = fopen(path, "a");
  if (out == NULL) return 1;
  fprintf(out, "calls %d\n", (int)handler_calls);
  fclose(out);
  return 0;
}

static void EmptyHandler(int signal_number, siginfo_t* info, void* context) {
  (void)signal_number;
  (void)info;
  (void)context;
}

static double NsPerSignal(int signal_number, long count) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  info.si_signo = signal_number;
  info.si_code = SI_TIMER;
  /* As prof's timers mark their signals (injection/core/timer_sampler.cpp). */
  info.si_value.sival_int = 0x70726f66;
  const pid_t pid = getpid();
  const pid_t tid = gettid();
  const long long start = MonotonicNs();
  for (long i = 0; i < count; ++i) {
    syscall(SYS_rt_tgsigqueueinfo, pid, tid, signal_number, &info);
  }
  return (double)(MonotonicNs() - start) / (double)count;
}

// Recursion that keeps its frames, so that each signal's walk has `depth` frames to go through.
__attribute__((noinline, noclone)) double Deep(int depth, int signal_number, long count) {
  if (depth == 0) return NsPerSignal(signal_number, count);
  const double result = Deep(depth - 1, signal_number, count);
  sink = sink + 1.0;
  return result;
}

static int Bench(const char* path, long count) {
  int handled = 0;
  const int prof_signal = HandledSignal(&handled);
  if (handled != 1) return 1;
  int free_signal = 0;
  for (int candidate = SIGRTMIN; candidate <= SIGRTMAX && free_signal == 0; ++candidate) {
    struct sigaction current;
    if (candidate != prof_signal && sigaction(candidate, NULL, &current) == 0 &&
        current.sa_handler == SIG_DFL) {
      free_signal = candidate;
    }
  }
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = EmptyHandler;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  if (free_signal == 0 || sigaction(free_signal, &action, NULL) != 0) return 1;
  Deep(10, prof_signal, count / 10);  // warm up: the thread's ring, the pages it touches
  const double sampled = Deep(10, prof_signal, count);
  const double empty = Deep(10, free_signal, count);
  FILE* out = Open(path);
  fprintf(out, "sampled_ns %.0f\nempty_ns %.0f\nsignals %ld\n", sampled, empty, count + count / 10);
  fclose(out);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  const char* path = argv[2];
  if (strcmp(mode, "split") == 0) return Split(path);
  if (strcmp(mode, "fork") == 0) return Fork(path);
  if (strcmp(mode, "kill") == 0) return Kill(path);
  if (strcmp(mode, "sleep") == 0) return Sleep(path);
  if (strcmp(mode, "handlers") == 0) return Handlers(path);
  if (strcmp(mode, "errno") == 0) return Errno(path);
  if (strcmp(mode, "reset") == 0) return Reset(path);
  if (strcmp(mode, "foreign") == 0) return Foreign(path);
  if (strcmp(mode, "restore") == 0) return Restore(path);
  if (strcmp(mode, "ignore") == 0) return Ignore(path);
  if (strcmp(mode, "own_timer") == 0) return OwnTimer(path);
  if (strcmp(mode, "bench") == 0 && argc > 3) return Bench(path, atol(argv[3]));
  return 2;
}
