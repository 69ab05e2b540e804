#include "collector/session_console.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace prof::collector {
namespace {

// Processes that outlive the program for less than this are a normal exit (a pool's workers
// flushing), not worth a line.
constexpr uint64_t kWaitWorthANoteNs = 1'000'000'000;
// pids named in the waiting line; more are counted.
constexpr size_t kPidsNamed = 5;

std::string PidList(const std::vector<uint32_t>& pids) {
  std::string list;
  for (size_t i = 0; i < std::min(pids.size(), kPidsNamed); ++i) {
    list += (i == 0 ? "" : ", ") + std::to_string(pids[i]);
  }
  if (pids.size() > kPidsNamed) list += ", ...";
  return list;
}

}  // namespace

void SessionConsole::Started(const std::string& trace_text, const std::string& command_line,
                             pid_t pid, const std::string& report_path) {
  const std::string traced =
      trace_text == "none" ? "running (-t none: nothing traced)" : "tracing " + trace_text + " of";
  spdlog::info("{} `{}` (pid {}) into {}", traced, command_line, pid, report_path);
}

void SessionConsole::NewWarnings(const StreamImporter& importer) {
  const std::vector<std::string>& cuda = importer.cuda_warnings();
  for (; cuda_warnings_said_ < cuda.size(); ++cuda_warnings_said_) {
    spdlog::warn("warning: {}; tracing the rest", cuda[cuda_warnings_said_]);
  }
  const std::vector<std::string>& python = importer.python_warnings();
  for (; python_warnings_said_ < python.size(); ++python_warnings_said_) {
    spdlog::warn("warning: {}", python[python_warnings_said_]);
  }
  const std::vector<ProcessTracker::Killed>& deaths = importer.processes().killed();
  for (; deaths_seen_ < deaths.size(); ++deaths_seen_) {
    const ProcessTracker::Killed& killed = deaths[deaths_seen_];
    SayDied(killed.pid, killed.name, killed.death);
  }
}

void SessionConsole::ProgramDied(const ProcessDeath& death) {
  if (program_death_said_) return;
  program_death_said_ = true;
  spdlog::warn("warning: the program (pid {}) was {}", program_pid_, DescribeDeath(death));
}

void SessionConsole::SayDied(uint32_t pid, const std::string& name, const ProcessDeath& death) {
  if (pid == program_pid_) {
    ProgramDied(death);
    return;
  }
  // Another process ended on purpose (Pool.terminate's SIGTERM, a pipe's reader gone) is only
  // in the report; a crash or a kill (the OOM killer's SIGKILL) is said.
  if (!KilledByAccident(death)) return;
  spdlog::warn("warning: process {}{} was {}", pid, name.empty() ? "" : " (" + name + ")",
               DescribeDeath(death));
}

void SessionConsole::ProgramExited(const CaptureOptions& capture,
                                   const protocol::CaptureControl& control) {
  if (capture.whole_program() || control.windows_opened.load(std::memory_order_acquire) > 0) {
    return;
  }
  std::string why;
  if (control.armed.load(std::memory_order_acquire) == 0) {
    why = "before --delay ended";
  } else if (capture.range == protocol::CaptureRange::kCudaProfilerApi) {
    why = "without calling cudaProfilerStart (--capture-range=cudaProfilerApi)";
  } else {
    why = "without starting the NVTX range '" + capture.nvtx_message + "' (--nvtx-capture)";
  }
  spdlog::warn(
      "warning: the program exited {}: collection never started, the report holds no "
      "events",
      why);
}

void SessionConsole::StillWaiting(uint64_t since_exit_ns, const std::vector<uint32_t>& pids) {
  if (waiting_said_ || pids.empty() || since_exit_ns < kWaitWorthANoteNs) return;
  waiting_said_ = true;
  spdlog::info("waiting for {} process{} that outlived the program (pid {}); Ctrl-C to stop",
               pids.size(), pids.size() == 1 ? "" : "es", PidList(pids));
}

void SessionConsole::NotWaiting(const std::vector<uint32_t>& pids) {
  if (pids.empty()) return;
  spdlog::info("not waiting for {} process(es) that outlived the program (--wait=primary)",
               pids.size());
}

}  // namespace prof::collector
