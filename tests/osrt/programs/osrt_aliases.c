// Built with -O2 -D_FORTIFY_SOURCE=2 -D_FILE_OFFSET_BITS=64, so its calls reach libc under the
// names such programs really call: open with run-time flags becomes __open64_2, a read into a
// fixed-size array __read_chk, fopen fopen64, fgets __fgets_chk, stat stat64, mmap mmap64; dup,
// dup2 and dup3 keep their names. The
// opens and reads block on FIFOs that a writer thread opens and fills 5 ms later; the test
// profiles it with --osrt-threshold=0 so that the short calls are recorded too. Prints the pid and
// the mmap64 address; exits 1 when a call fails. Argument: a directory for the FIFOs.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// One FIFO per round, so that a round's reader can never open the writer's previous round.
static char fifo_paths[2][256];
static volatile int read_flags = O_RDONLY;  // not a compile-time constant: open becomes __open64_2
static volatile size_t one = 1;             // nor is the read size: read becomes __read_chk

static void* Writer(void* unused) {
  (void)unused;
  for (int round = 0; round < 2; ++round) {
    usleep(5000);
    const int fd = open(fifo_paths[round], O_WRONLY);
    if (fd < 0) return (void*)1;
    usleep(5000);
    const ssize_t written = write(fd, "line\n", 5);
    close(fd);
    if (written != 5) return (void*)1;
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 2) return 1;
  for (int round = 0; round < 2; ++round) {
    snprintf(fifo_paths[round], sizeof(fifo_paths[round]), "%s/fifo%d", argv[1], round);
    if (mkfifo(fifo_paths[round], 0600) != 0) return 1;
  }
  pthread_t writer;
  if (pthread_create(&writer, NULL, Writer, NULL) != 0) return 1;

  int failures = 0;
  const int fd = open(fifo_paths[0], read_flags);
  char byte[8];
  failures += fd < 0 || read(fd, byte, one) != 1;
  // Duplicates onto fixed numbers, so the test knows what dup2 and dup3 return.
  const int copy = dup(fd);
  failures += copy < 0 || dup2(fd, 100) != 100 || dup3(fd, 101, O_CLOEXEC) != 101;
  close(101);
  close(100);
  close(copy);
  close(fd);
  FILE* stream = fopen(fifo_paths[1], "r");
  char line[16];
  failures += stream == NULL || fgets(line, (int)(one * sizeof(line)), stream) == NULL;
  if (stream != NULL) fclose(stream);
  struct stat status;
  failures += stat(fifo_paths[1], &status) != 0;

  const size_t size = 8u << 20;
  void* mapping =
      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  failures += mapping == MAP_FAILED || munmap(mapping, size) != 0;
  void* writer_result;
  pthread_join(writer, &writer_result);
  printf("pid=%d mapping=%lld dup=%d\n", (int)getpid(), (long long)(size_t)mapping, copy);
  return failures == 0 && writer_result == NULL ? 0 : 1;
}
