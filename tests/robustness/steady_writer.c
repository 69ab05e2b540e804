/* A program that keeps prof busy: writes to /dev/null for DURATION_MS (each write an OS runtime
 * event), then creates MARKER and exits with status CODE. Tests see from MARKER that it ran to
 * its end whatever happened to prof.
 *   steady_writer MARKER CODE DURATION_MS */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long NowMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000LL + now.tv_nsec / 1000000;
}

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const long long end = NowMs() + atoll(argv[3]);
  const int null_fd = open("/dev/null", O_WRONLY);
  while (NowMs() < end) {
    if (write(null_fd, "x", 1) != 1) return 3;
  }
  FILE* marker = fopen(argv[1], "w");
  if (marker == NULL || fputs("ran to its end\n", marker) < 0 || fclose(marker) != 0) return 4;
  return atoi(argv[2]);
}
