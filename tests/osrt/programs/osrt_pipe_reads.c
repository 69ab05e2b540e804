// The main thread reads 3 single bytes from a pipe; a writer thread sleeps 20 ms before writing
// each one, so every read blocks. Prints the pid and the writer's tid.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static int pipe_fds[2];
static pid_t writer_tid;

static void* Writer(void* unused) {
  (void)unused;
  writer_tid = (pid_t)syscall(SYS_gettid);
  for (int i = 0; i < 3; ++i) {
    usleep(20000);
    const char byte = 'x';
    if (write(pipe_fds[1], &byte, 1) != 1) return NULL;
  }
  return NULL;
}

int main(void) {
  if (pipe(pipe_fds) != 0) return 1;
  pthread_t writer;
  if (pthread_create(&writer, NULL, Writer, NULL) != 0) return 1;
  int bytes = 0;
  for (int i = 0; i < 3; ++i) {
    char byte;
    bytes += (int)read(pipe_fds[0], &byte, 1);
  }
  pthread_join(writer, NULL);
  printf("pid=%d writer_tid=%d\n", (int)getpid(), (int)writer_tid);
  return bytes == 3 ? 0 : 1;
}
