// Removes an output file that is still being written when SIGINT, SIGTERM or SIGHUP ends prof,
// then lets the signal end prof as it would have: an interrupted `prof export` must leave neither
// its partial file nor a changed exit status behind.
//
// Contract: one instance at a time (signal handlers are process-wide). A signal that was ignored
// when the instance was made (`nohup`, a shell's background job) stays ignored.
#pragma once

#include <signal.h>

#include <string>

namespace prof::exporter {

class RemoveWhenInterrupted {
 public:
  explicit RemoveWhenInterrupted(const std::string& path);
  // Restores the handlers there were before.
  ~RemoveWhenInterrupted();
  RemoveWhenInterrupted(const RemoveWhenInterrupted&) = delete;
  RemoveWhenInterrupted& operator=(const RemoveWhenInterrupted&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[sizeof(kSignals) / sizeof(kSignals[0])] = {};
  bool installed_[sizeof(kSignals) / sizeof(kSignals[0])] = {};
};

}  // namespace prof::exporter
