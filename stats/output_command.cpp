#include "stats/output_command.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace prof::stats {
namespace {

// SIGPIPE ignored while this lives: a command that exits before reading everything must not
// kill prof (the write then fails with EPIPE, which is the command's business).
class SigpipeIgnored {
 public:
  SigpipeIgnored() {
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~SigpipeIgnored() { sigaction(SIGPIPE, &previous_, nullptr); }
  SigpipeIgnored(const SigpipeIgnored&) = delete;
  SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

 private:
  struct sigaction previous_ = {};
};

}  // namespace

Status PipeToCommand(const std::string& command, const std::string& text) {
  std::fflush(stdout);  // what prof printed before comes before the command's output
  const SigpipeIgnored sigpipe_ignored;
  FILE* pipe = popen(command.c_str(), "w");
  if (pipe == nullptr) {
    return Status::Error("cannot run the output command '" + command +
                         "': " + std::strerror(errno));
  }
  std::fwrite(text.data(), 1, text.size(), pipe);
  const int status = pclose(pipe);
  if (status == -1) {
    return Status::Error("cannot wait for the output command '" + command +
                         "': " + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::Ok();
  const std::string how = WIFEXITED(status)
                              ? "exited with status " + std::to_string(WEXITSTATUS(status))
                              : "was killed by signal " + std::to_string(WTERMSIG(status));
  return Status::Error("the output command '" + command + "' " + how);
}

}  // namespace prof::stats
