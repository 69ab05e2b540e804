// Starts the program to profile as a child process in two steps, so that the report can be named
// after the child's pid (`-o report_%p`) and checked before the program runs:
//   Spawn()   forks a child that waits, before exec, until told to go;
//   Release() lets it exec the program (or reports why exec failed);
//   Cancel()  kills a child that never ran the program.
// The child's stdin, stdout and stderr are the launcher's, untouched unless `discard_output`.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "collector/process_death.h"
#include "common/status.h"

namespace prof::collector {

struct LaunchSpec {
  std::vector<std::string> argv;           // argv[0] is the program, searched in PATH like a shell
  std::vector<std::string> environment;    // the child's complete environment, "NAME=value"
  std::optional<rlimit> descriptor_limit;  // RLIMIT_NOFILE for the program, when not prof's
  bool discard_output = false;             // stdout and stderr to /dev/null (-w false)
};

// Raises this process's soft RLIMIT_NOFILE to its hard limit (prof holds a socket per traced
// process) and returns the limit it had (none when unknown): the program gets that one back,
// since programs that use select() must not see descriptors above 1023.
std::optional<rlimit> RaiseDescriptorLimit();

// Finds `program` in PATH as execvp would; errors name the program and say what is wrong.
Status ResolveProgram(const std::string& program, const std::string& path_variable,
                      std::string* resolved);

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // `spec.argv[0]` must already be resolved to a path (ResolveProgram).
  Status Spawn(const LaunchSpec& spec);
  Status Release();
  void Cancel();

  pid_t pid() const { return pid_; }
  // A file descriptor that becomes readable when the child exits (a pidfd), or -1.
  int exit_fd() const { return pidfd_; }
  // Forwards `signal` to the child (prof's own SIGINT/SIGTERM/SIGHUP).
  void Signal(int signal) const;
  // Non-blocking when `block` is false: true once the child was reaped; *exit_code is its exit
  // code, or 128+N when signal N killed it.
  bool Reap(bool block, int* exit_code);
  // Once reaped: how a signal killed it, if one did.
  const std::optional<ProcessDeath>& death() const { return death_; }

 private:
  pid_t pid_ = -1;
  int pidfd_ = -1;
  int go_fd_ = -1;          // write end: one byte releases the child
  int exec_error_fd_ = -1;  // read end: the child's errno when exec failed, EOF when it succeeded
  bool reaped_ = false;
  int exit_code_ = -1;
  std::optional<ProcessDeath> death_;
};

}  // namespace prof::collector
