#include "tests/python_frames/python_target.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

namespace prof::test {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

}  // namespace

std::vector<std::string> SupportedPythons() {
  if (const char* list = std::getenv("PROF_TEST_PYTHONS")) return Split(list, ':');
  return Split(PROF_TEST_SUPPORTED_PYTHONS, ':');
}

std::vector<std::string> UnsupportedPythons() { return Split(PROF_TEST_UNSUPPORTED_PYTHONS, ':'); }

std::string MinorVersionOf(const std::string& python) {
  size_t at = python.rfind("python");
  return at == std::string::npos ? "" : python.substr(at + 6);
}

PythonTarget::PythonTarget(const std::string& python, const std::string& mode) {
  int fds[2];
  if (pipe(fds) != 0) {
    error_ = "pipe failed";
    return;
  }
  std::string script = PROF_TEST_FRAMES_SCRIPT;
  pid_ = fork();
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(python.c_str(), python.c_str(), script.c_str(), mode.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  out_fd_ = fds[0];
  std::string buffer;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd poller{out_fd_, POLLIN, 0};
    if (poll(&poller, 1, 200) <= 0) continue;
    char chunk[4096];
    ssize_t got = read(out_fd_, chunk, sizeof(chunk));
    if (got <= 0) break;
    buffer.append(chunk, static_cast<size_t>(got));
    size_t ready = buffer.find("ready ");
    if (ready == std::string::npos || buffer.find('\n', ready) == std::string::npos) continue;
    for (const std::string& line : Split(buffer, '\n')) {
      std::istringstream words(line);
      std::string kind;
      words >> kind;
      if (kind == "line") {
        std::string marker;
        int number = 0;
        words >> marker >> number;
        lines_[marker] = number;
      } else if (kind == "function") {
        std::string name;
        int first = 0, last = 0;
        uint64_t code = 0;
        words >> name >> first >> last >> code;
        functions_[name] = {first, last};
        codes_[name] = code;
      } else if (kind == "file") {
        words >> file_;
      } else if (kind == "ready") {
        int pid = 0;
        words >> pid >> main_tid_ >> worker_tid_ >> sleeper_tid_;
        ok_ = pid == pid_;
      }
    }
    if (!ok_) error_ = "unexpected output: " + buffer;
    return;
  }
  error_ = "no ready line from " + python + " within 20 s: " + buffer;
}

PythonTarget::~PythonTarget() {
  if (pid_ > 0 && !reaped_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
}

int PythonTarget::Line(const std::string& marker) const {
  auto found = lines_.find(marker);
  return found == lines_.end() ? 0 : found->second;
}

bool PythonTarget::WaitExit(double seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      reaped_ = true;
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace prof::test
