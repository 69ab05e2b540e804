#include "collector/capture_controller.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

namespace prof::collector {

void CaptureController::Start(uint64_t now_ns) {
  start_ns_ = now_ns;
  if (options_.delay_ns == 0) ArmOrOpen(now_ns);
}

void CaptureController::ArmOrOpen(uint64_t now_ns) {
  armed_ = true;
  control_->armed.store(1, std::memory_order_release);
  if (options_.range == protocol::CaptureRange::kNone) protocol::TryOpenWindow(control_, now_ns);
}

void CaptureController::CloseExpiredWindow(uint64_t now_ns) {
  if (options_.duration_ns == 0 ||
      control_->state.load(std::memory_order_acquire) != protocol::kCaptureOn) {
    return;
  }
  const uint32_t opened = control_->windows_opened.load(std::memory_order_acquire);
  if (opened == 0) return;
  const protocol::CaptureWindow& window = protocol::WindowSlot(control_, opened - 1);
  if (now_ns - window.start_ns.load(std::memory_order_acquire) >= options_.duration_ns &&
      protocol::TryCloseWindow(control_, opened - 1, now_ns)) {
    // The program's fate is worth a word when this ends its collection while it runs.
    const bool done = control_->state.load(std::memory_order_acquire) == protocol::kCaptureDone &&
                      !program_exited_;
    std::string then;
    if (done && options_.kill_signal != 0) {
      then = "; stopping the program with signal " + std::to_string(options_.kill_signal) +
             " (--kill)";
    } else if (done) {
      then = "; the program keeps running (--kill=none)";
    }
    spdlog::info("--duration={} s reached: collection stopped{}", options_.duration_ns / 1e9, then);
  }
}

int CaptureController::Tick(uint64_t now_ns) {
  if (!armed_ && now_ns - start_ns_ >= options_.delay_ns) ArmOrOpen(now_ns);
  CloseExpiredWindow(now_ns);
  const bool ends_program =
      options_.duration_ns > 0 ||
      (options_.range != protocol::CaptureRange::kNone && options_.shuts_down());
  if (!signalled_ && !program_exited_ && ends_program && options_.kill_signal != 0 &&
      control_->state.load(std::memory_order_acquire) == protocol::kCaptureDone) {
    signalled_ = true;
    return options_.kill_signal;
  }
  return 0;
}

int CaptureController::PollTimeoutMs(uint64_t now_ns, int longest_ms) const {
  uint64_t due_ns = UINT64_MAX;
  if (!armed_) due_ns = start_ns_ + options_.delay_ns;
  if (options_.duration_ns > 0 &&
      control_->state.load(std::memory_order_acquire) == protocol::kCaptureOn) {
    const uint32_t opened = control_->windows_opened.load(std::memory_order_acquire);
    const uint64_t start = protocol::WindowSlot(control_, opened - 1).start_ns.load();
    due_ns = std::min(due_ns, start + options_.duration_ns);
  }
  if (due_ns == UINT64_MAX) return longest_ms;
  const uint64_t wait_ns = due_ns > now_ns ? due_ns - now_ns : 0;
  return static_cast<int>(std::min<uint64_t>(wait_ns / 1'000'000 + 1, longest_ms));
}

}  // namespace prof::collector
