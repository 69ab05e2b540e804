/* A statically linked program that uses NVTX: its first NVTX call dlopens the library named by
   NVTX_INJECTION64_PATH into a program that has its own libc. It prints one line, then runs the
   command in its arguments (if any) and exits with that command's exit code: the command, a
   dynamically linked program, is what prof can trace. */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  nvtxRangePushA("static step");
  nvtxMarkA("static mark");
  nvtxRangePop();
  printf("static program ran its NVTX calls\n");
  fflush(stdout);
  if (argc < 2) return 0;
  const pid_t child = fork();
  if (child == 0) {
    execv(argv[1], argv + 1);
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 1;
  return WEXITSTATUS(status);
}
