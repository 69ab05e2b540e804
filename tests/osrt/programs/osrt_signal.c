// Signal handlers that make traced calls while the interrupted thread is inside a traced call.
// Twice, the main thread blocks in read() on an empty pipe and a 10 ms timer's SIGALRM handler
// sleeps 3 ms with nanosleep (async-signal-safe):
//  1. with SA_RESTART, the handler also writes one byte: the read restarts and returns 1;
//  2. without SA_RESTART: the read fails with EINTR, which must still be in errno afterwards.
// Prints the pid; exits 1 when a result or errno is not as expected.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int pipe_fds[2];
static volatile sig_atomic_t write_in_handler;

static void OnAlarm(int signal_number) {
  (void)signal_number;
  const int saved_errno = errno;
  const struct timespec three_ms = {0, 3000000};
  nanosleep(&three_ms, NULL);
  if (write_in_handler) {
    const char byte = 's';
    if (write(pipe_fds[1], &byte, 1) != 1) _exit(2);
  }
  errno = saved_errno;
}

static ssize_t ReadDuringAlarm(int flags, int write_byte) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = OnAlarm;
  action.sa_flags = flags;
  sigaction(SIGALRM, &action, NULL);
  write_in_handler = write_byte;
  const struct itimerval ten_ms = {{0, 0}, {0, 10000}};
  setitimer(ITIMER_REAL, &ten_ms, NULL);
  char byte;
  return read(pipe_fds[0], &byte, 1);
}

int main(void) {
  if (pipe(pipe_fds) != 0) return 1;
  const ssize_t restarted = ReadDuringAlarm(SA_RESTART, 1);
  errno = 0;
  const ssize_t interrupted = ReadDuringAlarm(0, 0);
  const int interrupted_errno = errno;
  printf("pid=%d\n", (int)getpid());
  return restarted == 1 && interrupted == -1 && interrupted_errno == EINTR ? 0 : 1;
}
