// A reader thread blocks in read() on an empty pipe and is cancelled 10 ms later. Cancellation
// unwinds through the interposer's frame (it must keep unwind tables); the read never returns, so
// it leaves no row. Prints the pid; exits 1 unless the join reports PTHREAD_CANCELED.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int pipe_fds[2];

static void* Reader(void* unused) {
  (void)unused;
  char byte;
  if (read(pipe_fds[0], &byte, 1) < 0) return (void*)1;
  return NULL;
}

int main(void) {
  if (pipe(pipe_fds) != 0) return 1;
  pthread_t reader;
  if (pthread_create(&reader, NULL, Reader, NULL) != 0) return 1;
  usleep(10000);
  pthread_cancel(reader);
  void* result = NULL;
  pthread_join(reader, &result);
  printf("pid=%d\n", (int)getpid());
  return result == PTHREAD_CANCELED ? 0 : 1;
}
