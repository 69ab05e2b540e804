/* A program that starts a known process tree, for the process-tree tests (nvtx,osrt tracing):
 *   tree_program leaf TAG        NVTX range TAG around one usleep(20 ms); prints "leaf TAG pid=N"
 *   tree_program spawn           posix_spawn of "leaf spawned", waits; prints "child=N"
 *   tree_program system          system("<self> leaf system"), exits with the leaf's status
 *   tree_program linger MS CODE  forks a child that outlives the parent: it sleeps MS ms, emits the
 *                                NVTX range "late" and exits 0; the parent prints "child=N" and
 *                                exits CODE at once, without waiting
 *   tree_program family          forks a child that leaves the process group, marks "child" and
 *                                sleeps 60 s; once the child has marked, the parent marks
 *                                "parent", prints "child=N" and waits for it */
#define _GNU_SOURCE
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static int Leaf(const char* tag) {
  nvtxRangePushA(tag);
  usleep(20000);
  nvtxRangePop();
  printf("leaf %s pid=%d\n", tag, (int)getpid());
  return 0;
}

static int Spawn(const char* self) {
  char* argv[] = {(char*)self, "leaf", "spawned", NULL};
  pid_t child = 0;
  if (posix_spawn(&child, self, NULL, NULL, argv, environ) != 0) return 2;
  printf("child=%d\n", (int)child);
  fflush(stdout);
  int status = 0;
  if (waitpid(child, &status, 0) != child) return 3;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

static int System(const char* self) {
  char command[4096];
  snprintf(command, sizeof(command), "'%s' leaf system", self);
  fflush(stdout);
  const int status = system(command);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

static int Linger(int ms, int code) {
  fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    /* Let go of the test's pipes, so that only prof's waiting keeps the child in the report. */
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
    usleep((useconds_t)ms * 1000);
    nvtxRangePushA("late");
    nvtxRangePop();
    exit(0);
  }
  printf("child=%d\n", (int)child);
  return code;
}

static int Family(void) {
  int marked[2];
  if (pipe(marked) != 0) return 2;
  fflush(stdout);
  const pid_t child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    /* Out of the program's process group, so that a signal to the group would miss it; off the
     * test's pipes, and gone after 60 s at most, so that a failing test leaves nothing waiting. */
    setpgid(0, 0);
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
    nvtxMarkA("child");
    if (write(marked[1], "m", 1) != 1) exit(3);
    sleep(60);
    exit(0);
  }
  char byte;
  if (read(marked[0], &byte, 1) != 1) return 3;
  nvtxMarkA("parent");
  printf("child=%d\n", (int)child);
  fflush(stdout);
  waitpid(child, NULL, 0);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "leaf") == 0) return Leaf(argv[2]);
  if (argc >= 2 && strcmp(argv[1], "spawn") == 0) return Spawn(argv[0]);
  if (argc >= 2 && strcmp(argv[1], "system") == 0) return System(argv[0]);
  if (argc >= 4 && strcmp(argv[1], "linger") == 0) return Linger(atoi(argv[2]), atoi(argv[3]));
  if (argc >= 2 && strcmp(argv[1], "family") == 0) return Family();
  fprintf(stderr, "usage: tree_program leaf TAG | spawn | system | linger MS CODE | family\n");
  return 64;
}
