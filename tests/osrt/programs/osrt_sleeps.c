// Sleeps a known number of times: 3 x usleep(2 ms), 2 x nanosleep(3 ms), 1 x clock_nanosleep(1 ms).
// Prints its pid. Exits 1 when a sleep fails.
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  int failures = 0;
  for (int i = 0; i < 3; ++i) failures += usleep(2000) != 0;
  const struct timespec three_ms = {0, 3000000};
  for (int i = 0; i < 2; ++i) failures += nanosleep(&three_ms, NULL) != 0;
  const struct timespec one_ms = {0, 1000000};
  failures += clock_nanosleep(CLOCK_MONOTONIC, 0, &one_ms, NULL) != 0;
  printf("pid=%d\n", (int)getpid());
  return failures == 0 ? 0 : 1;
}
