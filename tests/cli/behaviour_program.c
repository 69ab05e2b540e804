/* A program with known behaviour for prof's launcher tests:
 *   behaviour_program exit N     exits with status N
 *   behaviour_program kill SIG   kills itself with signal SIG
 *   behaviour_program echo       copies stdin to stdout, writes "to stderr\n" to stderr, exits 0
 *   behaviour_program args A...  prints each argument on its own line
 *   behaviour_program env NAME   prints the value of NAME (or "<unset>") */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "exit") == 0) return atoi(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "kill") == 0) {
    kill(getpid(), atoi(argv[2]));
    pause();
  }
  if (argc >= 2 && strcmp(argv[1], "echo") == 0) {
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), stdin)) > 0) fwrite(buffer, 1, n, stdout);
    fputs("to stderr\n", stderr);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "args") == 0) {
    for (int i = 2; i < argc; ++i) puts(argv[i]);
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "env") == 0) {
    const char* value = getenv(argv[2]);
    puts(value ? value : "<unset>");
    return 0;
  }
  return 2;
}
