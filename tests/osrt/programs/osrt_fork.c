// Forks once. The child sleeps twice (2 ms each) and exits normally; the parent waits for it with
// waitpid. Prints both pids; exits 1 when the child failed.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  const pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    const int failures = (usleep(2000) != 0) + (usleep(2000) != 0);
    exit(failures == 0 ? 0 : 1);
  }
  int status = 0;
  const pid_t reaped = waitpid(child, &status, 0);
  printf("parent=%d child=%d\n", (int)getpid(), (int)child);
  return reaped == child && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
