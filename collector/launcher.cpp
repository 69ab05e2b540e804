#include "collector/launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

namespace prof::collector {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

Status CheckCandidate(const std::string& program, const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return Status::Error("program not found: " + program);
  if (S_ISDIR(info.st_mode)) return Status::Error("program is a directory: " + program);
  if (access(path.c_str(), X_OK) != 0)
    return Status::Error("program is not executable: " + program);
  return Status::Ok();
}

void ClosePair(const int fds[2]) {
  close(fds[0]);
  close(fds[1]);
}

std::vector<char*> PointersTo(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

Status ResolveProgram(const std::string& program, const std::string& path_variable,
                      std::string* resolved) {
  if (program.empty()) return Status::Error("no program given");
  if (program.find('/') != std::string::npos) {
    Status status = CheckCandidate(program, program);
    if (status.ok()) *resolved = program;
    return status;
  }
  std::istringstream directories(path_variable);
  std::string directory;
  bool found_unexecutable = false;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
    if (IsExecutableFile(candidate)) {
      *resolved = candidate;
      return Status::Ok();
    }
    found_unexecutable |= access(candidate.c_str(), F_OK) == 0;
  }
  return Status::Error(found_unexecutable ? "program is not executable: " + program
                                          : "program not found: " + program);
}

std::optional<rlimit> RaiseDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::nullopt;
  rlimit raised = limit;
  raised.rlim_cur = limit.rlim_max;
  if (raised.rlim_cur != limit.rlim_cur) setrlimit(RLIMIT_NOFILE, &raised);
  return limit;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_ && go_fd_ >= 0) Cancel();
  for (int fd : {pidfd_, go_fd_, exec_error_fd_}) {
    if (fd >= 0) close(fd);
  }
}

Status ChildProcess::Spawn(const LaunchSpec& spec) {
  int go_pipe[2], error_pipe[2];
  if (pipe2(go_pipe, O_CLOEXEC) != 0) {
    return Status::Error(std::string("cannot create pipes: ") + std::strerror(errno));
  }
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    ClosePair(go_pipe);
    return Status::Error(std::string("cannot create pipes: ") + std::strerror(error));
  }
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> environment = spec.environment;
  std::vector<char*> argv_pointers = PointersTo(argv);
  std::vector<char*> env_pointers = PointersTo(environment);
  const std::optional<rlimit> descriptor_limit = spec.descriptor_limit;
  const bool discard_output = spec.discard_output;
  pid_ = fork();
  if (pid_ < 0) {
    const int error = errno;
    ClosePair(go_pipe);
    ClosePair(error_pipe);
    return Status::Error(std::string("cannot fork: ") + std::strerror(error));
  }
  if (pid_ == 0) {
    // Child: only async-signal-safe calls until exec.
    close(go_pipe[1]);
    close(error_pipe[0]);
    char go = 0;
    while (read(go_pipe[0], &go, 1) < 0 && errno == EINTR) {
    }
    if (go != 1) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    if (descriptor_limit) setrlimit(RLIMIT_NOFILE, &*descriptor_limit);
    if (discard_output) {
      const int null_fd = open("/dev/null", O_WRONLY);
      if (null_fd >= 0) {
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
        if (null_fd > STDERR_FILENO) close(null_fd);
      }
    }
    execve(argv_pointers[0], argv_pointers.data(), env_pointers.data());
    const int exec_errno = errno;
    (void)!write(error_pipe[1], &exec_errno, sizeof(exec_errno));
    _exit(127);
  }
  close(go_pipe[0]);
  close(error_pipe[1]);
  go_fd_ = go_pipe[1];
  exec_error_fd_ = error_pipe[0];
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  return Status::Ok();
}

Status ChildProcess::Release() {
  const char go = 1;
  const bool sent = write(go_fd_, &go, 1) == 1;
  close(go_fd_);
  go_fd_ = -1;
  if (!sent) {
    const int error = errno;
    int ignored;
    Reap(true, &ignored);
    return Status::Error(std::string("cannot start the program: ") + std::strerror(error));
  }
  int exec_errno = 0;
  ssize_t n;
  while ((n = read(exec_error_fd_, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR) {
  }
  if (n == sizeof(exec_errno)) {
    int ignored;
    Reap(true, &ignored);
    return Status::Error(std::string("cannot execute the program: ") + std::strerror(exec_errno));
  }
  return Status::Ok();
}

void ChildProcess::Cancel() {
  if (go_fd_ >= 0) {
    close(go_fd_);  // the child reads EOF and exits without running anything
    go_fd_ = -1;
  }
  int ignored;
  Reap(true, &ignored);
}

void ChildProcess::Signal(int signal) const {
  if (pid_ > 0 && !reaped_) kill(pid_, signal);
}

bool ChildProcess::Reap(bool block, int* exit_code) {
  if (!reaped_) {
    int status = 0;
    pid_t result;
    while ((result = waitpid(pid_, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
    }
    if (result != pid_) return false;
    reaped_ = true;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (WIFSIGNALED(status)) death_ = ProcessDeath{WTERMSIG(status), WCOREDUMP(status) != 0};
  }
  *exit_code = exit_code_;
  return true;
}

}  // namespace prof::collector
