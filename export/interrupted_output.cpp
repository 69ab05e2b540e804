#include "export/interrupted_output.h"

#include <limits.h>
#include <unistd.h>

#include <cstring>
#include <iterator>

namespace prof::exporter {
namespace {

// Copied in before the handlers are installed: a handler may only make async-signal-safe calls.
char g_path[PATH_MAX];

void RemoveAndResignal(int signal) {
  unlink(g_path);
  // SA_RESETHAND has restored the default action; the signal is delivered again once this
  // handler returns and ends the process with the status a shell expects.
  raise(signal);
}

}  // namespace

RemoveWhenInterrupted::RemoveWhenInterrupted(const std::string& path) {
  // A longer path cannot have been created, so there is nothing to remove.
  if (path.size() >= sizeof(g_path)) return;
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  struct sigaction action = {};
  action.sa_handler = RemoveAndResignal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    if (sigaction(kSignals[i], nullptr, &previous_[i]) != 0 || previous_[i].sa_handler == SIG_IGN) {
      continue;
    }
    installed_[i] = sigaction(kSignals[i], &action, nullptr) == 0;
  }
}

RemoveWhenInterrupted::~RemoveWhenInterrupted() {
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    if (installed_[i]) sigaction(kSignals[i], &previous_[i], nullptr);
  }
}

}  // namespace prof::exporter
