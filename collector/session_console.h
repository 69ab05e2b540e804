// What `prof profile` tells its user while the program runs, each when it happens (spdlog; -q
// leaves only errors): the start line, CUDA and Python set-up problems as
// processes report them, a capture that never started, processes a signal killed (the program,
// when prof reaps it; the others, when their parent reaps them or their stream ends), and
// processes that outlive the program.
// Losses are said by ProcessTracker (at most once a second), --duration by CaptureController, and
// the end summary by the command. Single-threaded: the session's poll loop calls every method.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collector/capture_options.h"
#include "collector/process_death.h"
#include "collector/stream_importer.h"
#include "injection/protocol/capture_control.h"

namespace prof::collector {

class SessionConsole {
 public:
  // `program_pid`: the program prof started (a death of it is "the program's").
  explicit SessionConsole(uint32_t program_pid) : program_pid_(program_pid) {}

  // "tracing cuda,nvtx,osrt of `python train.py` (pid 42) into report1.sqlite".
  static void Started(const std::string& trace_text, const std::string& command_line, pid_t pid,
                      const std::string& report_path);
  // Prints the CUDA and Python set-up warnings and the processes killed that `importer` collected
  // since the last call.
  void NewWarnings(const StreamImporter& importer);
  // The program was reaped, killed by a signal: "the program (pid 42) was killed by SIGSEGV ...".
  void ProgramDied(const ProcessDeath& death);
  // At the program's exit: says when no capture window opened, so the report holds no events.
  static void ProgramExited(const CaptureOptions& capture, const protocol::CaptureControl& control);
  // After the exit, while processes it left behind still stream: says so once, after a second.
  void StillWaiting(uint64_t since_exit_ns, const std::vector<uint32_t>& pids);
  // --wait=primary ends the session: names how many processes still run, if any.
  static void NotWaiting(const std::vector<uint32_t>& pids);

 private:
  void SayDied(uint32_t pid, const std::string& name, const ProcessDeath& death);

  uint32_t program_pid_;
  size_t cuda_warnings_said_ = 0;
  size_t python_warnings_said_ = 0;
  size_t deaths_seen_ = 0;
  bool program_death_said_ = false;
  bool waiting_said_ = false;
};

}  // namespace prof::collector
