// The launcher's capture timers: --delay, --duration and --kill, and the shutdown of
// --capture-range-end=stop-shutdown|repeat-shutdown.
//
// - Without --capture-range the launcher opens the one window itself: at once (before the program
//   runs, so nothing is missed) or after --delay. With a range, --delay only postpones arming the
//   program's triggers (NVTX ranges, cudaProfilerStart) and the program opens windows itself.
// - --duration closes any window that has been open that long, and says so.
// - When the last window has closed (the page's state is kCaptureDone) after --duration or with a
//   shutdown range end, the program's process tree gets --kill's signal, once; --kill=none leaves
//   it running.
// Single-threaded: the session's poll loop calls Tick() between polls.
#pragma once

#include <cstdint>

#include "collector/capture_options.h"
#include "injection/protocol/capture_control.h"

namespace prof::collector {

class CaptureController {
 public:
  CaptureController(const CaptureOptions& options, protocol::CaptureControl* control)
      : options_(options), control_(control) {}

  // The program is about to be released at `now_ns`: the timers start here.
  void Start(uint64_t now_ns);
  // Fires the timers that are due. Returns the signal the program's process tree must get now
  // (--kill's, once), else 0.
  int Tick(uint64_t now_ns);
  // The program exited: the timers still run (-x false collects until --duration expires) but
  // send no signal.
  void ProgramExited() { program_exited_ = true; }
  // How long the poll loop may wait before the next timer is due: `longest_ms` at most.
  int PollTimeoutMs(uint64_t now_ns, int longest_ms) const;

 private:
  void ArmOrOpen(uint64_t now_ns);
  void CloseExpiredWindow(uint64_t now_ns);

  const CaptureOptions options_;
  protocol::CaptureControl* control_;
  uint64_t start_ns_ = 0;
  bool armed_ = false;
  bool signalled_ = false;
  bool program_exited_ = false;
};

}  // namespace prof::collector
