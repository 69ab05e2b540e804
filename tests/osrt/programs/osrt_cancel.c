// A reader thread blocks in read() on an empty pipe and is cancelled 10 ms later. Cancellation
// unwinds through the interposer's frame (it must keep unwind tables); the read never returns, so
// it leaves no row. A second thread posts and takes a semaphore in a loop, so its sem_wait never
// blocks: sem_wait is a cancellation point all the same, and the cancel must end the loop before
// its bound. Prints the pid; exits 1 unless both joins report PTHREAD_CANCELED.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static int pipe_fds[2];
static sem_t semaphore;

static void* Spinner(void* unused) {
  (void)unused;
  for (long i = 0; i < 100000000; ++i) {
    sem_post(&semaphore);
    sem_wait(&semaphore);
  }
  return (void*)1;
}

static void* Reader(void* unused) {
  (void)unused;
  char byte;
  if (read(pipe_fds[0], &byte, 1) < 0) return (void*)1;
  return NULL;
}

int main(void) {
  if (pipe(pipe_fds) != 0 || sem_init(&semaphore, 0, 0) != 0) return 1;
  pthread_t reader, spinner;
  if (pthread_create(&reader, NULL, Reader, NULL) != 0) return 1;
  if (pthread_create(&spinner, NULL, Spinner, NULL) != 0) return 1;
  usleep(10000);
  pthread_cancel(reader);
  pthread_cancel(spinner);
  void* read_result = NULL;
  void* spin_result = NULL;
  pthread_join(reader, &read_result);
  pthread_join(spinner, &spin_result);
  printf("pid=%d\n", (int)getpid());
  return read_result == PTHREAD_CANCELED && spin_result == PTHREAD_CANCELED ? 0 : 1;
}
