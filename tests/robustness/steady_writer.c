/* A program that keeps prof busy: writes to /dev/null for DURATION_MS (each write an OS runtime
 * event), then creates MARKER and exits with status CODE. Tests see from MARKER that it ran to
 * its end whatever happened to prof, and from STARTED (when given, created before the first
 * write) that it runs.
 *   steady_writer MARKER CODE DURATION_MS [STARTED] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int CreateWithLine(const char* path, const char* line) {
  FILE* file = fopen(path, "w");
  return file != NULL && fputs(line, file) >= 0 && fclose(file) == 0;
}

static long long NowMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000LL + now.tv_nsec / 1000000;
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) return 2;
  if (argc == 5 && !CreateWithLine(argv[4], "running\n")) return 4;
  const long long end = NowMs() + atoll(argv[3]);
  const int null_fd = open("/dev/null", O_WRONLY);
  while (NowMs() < end) {
    if (write(null_fd, "x", 1) != 1) return 3;
  }
  if (!CreateWithLine(argv[1], "ran to its end\n")) return 4;
  return atoi(argv[2]);
}
