// What `prof profile` was asked to capture and when: --delay, --duration, --kill,
// -c/--capture-range, -p/--nvtx-capture and --capture-range-end, parsed (cli/capture_flags) into
// values.
#pragma once

#include <cstdint>
#include <string>

#include "injection/protocol/capture_control.h"

namespace prof::collector {

// --capture-range-end; the shutdown kinds send --kill's signal when the last window closes.
enum class CaptureRangeEnd { kStop, kStopShutdown, kRepeat, kRepeatShutdown };

struct CaptureOptions {
  uint64_t delay_ns = 0;     // --delay: collection (or arming the range triggers) starts this late
  uint64_t duration_ns = 0;  // --duration: a window closes after this long; 0 = no limit
  int kill_signal = 15;      // --kill, nsys's default sigterm; 0 = none
  protocol::CaptureRange range = protocol::CaptureRange::kNone;
  std::string nvtx_message;  // -p MESSAGE[@DOMAIN]
  std::string nvtx_domain;   // empty: NVTX's default domain, unless nvtx_any_domain
  bool nvtx_any_domain = false;
  CaptureRangeEnd range_end = CaptureRangeEnd::kStopShutdown;  // nsys's default
  uint32_t max_windows = 1;  // repeat:N gives N, repeat 0 (unlimited); otherwise 1

  // No capture option given: one window from the program's start to its exit.
  bool whole_program() const {
    return delay_ns == 0 && duration_ns == 0 && range == protocol::CaptureRange::kNone;
  }
  bool repeats() const {
    return range_end == CaptureRangeEnd::kRepeat || range_end == CaptureRangeEnd::kRepeatShutdown;
  }
  bool shuts_down() const {
    return range_end == CaptureRangeEnd::kStopShutdown ||
           range_end == CaptureRangeEnd::kRepeatShutdown;
  }
};

}  // namespace prof::collector
