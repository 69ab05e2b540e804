// What `prof profile` tells its user while the program runs, each when it happens (spdlog; -q
// leaves only errors): the start line, CUDA and Python set-up problems as
// processes report them, a capture that never started, and processes that outlive the program.
// Losses are said by ProcessTracker (at most once a second), --duration by CaptureController, and
// the end summary by the command. Single-threaded: the session's poll loop calls every method.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collector/capture_options.h"
#include "collector/stream_importer.h"
#include "injection/protocol/capture_control.h"

namespace prof::collector {

class SessionConsole {
 public:
  // "tracing cuda,nvtx,osrt of `python train.py` (pid 42) into report1.sqlite".
  static void Started(const std::string& trace_text, const std::string& command_line, pid_t pid,
                      const std::string& report_path);
  // Prints the CUDA and Python set-up warnings `importer` collected since the last call.
  void NewWarnings(const StreamImporter& importer);
  // At the program's exit: says when no capture window opened, so the report holds no events.
  static void ProgramExited(const CaptureOptions& capture, const protocol::CaptureControl& control);
  // After the exit, while processes it left behind still stream: says so once, after a second.
  void StillWaiting(uint64_t since_exit_ns, const std::vector<uint32_t>& pids);
  // --wait=primary ends the session: names how many processes still run, if any.
  static void NotWaiting(const std::vector<uint32_t>& pids);

 private:
  size_t cuda_warnings_said_ = 0;
  size_t python_warnings_said_ = 0;
  bool waiting_said_ = false;
};

}  // namespace prof::collector
