/* A program with known behaviour for prof's launcher tests:
 *   behaviour_program exit N     exits with status N
 *   behaviour_program kill SIG   kills itself with signal SIG
 *   behaviour_program echo       copies stdin to stdout, writes "to stderr\n" to stderr, exits 0
 *   behaviour_program args A...  prints each argument on its own line
 *   behaviour_program env NAME   prints the value of NAME (or "<unset>")
 *   behaviour_program sigwait    blocks SIGTERM, sends it to itself, takes it with sigwait() and
 *                                prints "sigwait=15" (a thread that does not block it would die of it)
 *   behaviour_program closefds   closes every descriptor from 3 up (to 1023 or its limit), as
 *                                daemons do, puts a pipe on all those numbers, sleeps 100 ms and
 *                                prints how many of them were closed meanwhile ("closed=0")
 *   behaviour_program reusesockets  closes every descriptor from 3 up, puts one end of a socket
 *                                pair holding one unread byte on all those numbers, makes traced
 *                                calls for 100 ms, and prints how many bytes arrived at the other
 *                                end and how many of its own are still there ("sent=0 kept=1")
 *   behaviour_program rawfork    makes a child with _Fork() (no fork handlers run, as with clone()
 *                                in sandboxes) that calls exit(); prints "child=0" once it exited */
#define _GNU_SOURCE  // _Fork
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
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
  if (argc >= 2 && strcmp(argv[1], "sigwait") == 0) {
    usleep(100000);  // a real program's start-up: every thread it did not make is running by now
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, NULL);
    kill(getpid(), SIGTERM);  // process-directed: any thread that does not block it may take it
    int taken = 0;
    if (sigwait(&term, &taken) != 0) return 1;
    printf("sigwait=%d\n", taken);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "closefds") == 0) {
    const long limit = sysconf(_SC_OPEN_MAX);
    const int end = limit > 0 && limit < 1024 ? (int)limit : 1024;
    for (int fd = 3; fd < end; ++fd) close(fd);
    int ends[2];
    if (pipe(ends) != 0) return 1;
    for (int fd = 3; fd < end; ++fd) {
      if (fd != ends[0] && fd != ends[1] && dup2(ends[1], fd) != fd) return 1;
    }
    usleep(
        100000);  // traced with -t osrt: prof's flusher sends while the numbers are the program's
    int closed = 0;
    for (int fd = 3; fd < end; ++fd) closed += fcntl(fd, F_GETFD) == -1;
    printf("closed=%d\n", closed);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "reusesockets") == 0) {
    const long limit = sysconf(_SC_OPEN_MAX);
    const int end = limit > 0 && limit < 1024 ? (int)limit : 1024;
    for (int fd = 3; fd < end; ++fd) close(fd);
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0 || write(ends[1], "x", 1) != 1) return 1;
    for (int fd = 3; fd < end; ++fd) {
      if (fd != ends[0] && fd != ends[1] && dup2(ends[0], fd) != fd) return 1;
    }
    for (int i = 0; i < 100; ++i) usleep(1000);  // traced with -t osrt: records to send
    char buffer[4096];
    const ssize_t sent = recv(ends[1], buffer, sizeof(buffer), MSG_DONTWAIT);
    const ssize_t kept = recv(ends[0], buffer, sizeof(buffer), MSG_DONTWAIT);
    printf("sent=%zd kept=%zd\n", sent < 0 ? 0 : sent, kept < 0 ? 0 : kept);
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "rawfork") == 0) {
    const pid_t child = _Fork();
    if (child == 0) exit(0);  // exit(), not _exit(): the libraries' destructors run in the child
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 1;
    printf("child=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "env") == 0) {
    const char* value = getenv(argv[2]);
    puts(value ? value : "<unset>");
    return 0;
  }
  return 2;
}
