#include "cli/capture_flags.h"

#include <signal.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace prof::cli {
namespace {

using collector::CaptureRangeEnd;

// Decimal seconds ("2", "0.5") to ns; `allow_zero` false for --duration.
Status ParseSeconds(const std::string& option, const std::string& text, bool allow_zero,
                    uint64_t* ns) {
  char* end = nullptr;
  errno = 0;
  const double seconds = text.empty() ? -1 : std::strtod(text.c_str(), &end);
  const bool number = !text.empty() && end != nullptr && *end == '\0' && errno == 0 &&
                      std::isfinite(seconds) && text.find_first_of("xXpPeEnN") == std::string::npos;
  if (!number || seconds < 0 || (!allow_zero && seconds == 0) || seconds > 1e9) {
    return Status::Error(option + " expects a number of seconds " + (allow_zero ? ">= 0" : "> 0") +
                         ", got '" + text + "'");
  }
  *ns = static_cast<uint64_t>(std::llround(seconds * 1e9));
  return Status::Ok();
}

bool ParsePositive(const std::string& text, uint64_t limit, uint64_t* value) {
  if (text.empty() || text.size() > 10 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *value = std::strtoull(text.c_str(), nullptr, 10);
  return *value >= 1 && *value <= limit;
}

Status ParseKill(const std::string& text, int* signal) {
  uint64_t number = 0;
  if (text == "none") {
    *signal = 0;
  } else if (text == "sigterm") {
    *signal = SIGTERM;
  } else if (text == "sigkill") {
    *signal = SIGKILL;
  } else if (ParsePositive(text, static_cast<uint64_t>(SIGRTMAX), &number)) {
    *signal = static_cast<int>(number);
  } else {
    return Status::Error("unknown --kill signal '" + text +
                         "'; expected none, sigterm, sigkill or a signal number 1-" +
                         std::to_string(SIGRTMAX));
  }
  return Status::Ok();
}

Status ParseRange(const std::string& text, protocol::CaptureRange* range) {
  if (text == "none") {
    *range = protocol::CaptureRange::kNone;
  } else if (text == "cudaProfilerApi") {
    *range = protocol::CaptureRange::kCudaProfilerApi;
  } else if (text == "nvtx") {
    *range = protocol::CaptureRange::kNvtx;
  } else if (text == "hotkey") {
    return Status::Error(
        "--capture-range=hotkey is not supported: prof does not trace graphics programs' keys");
  } else {
    return Status::Error("unknown --capture-range '" + text +
                         "'; expected none, cudaProfilerApi or nvtx");
  }
  return Status::Ok();
}

Status ParseRangeEnd(const std::string& text, collector::CaptureOptions* options) {
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  uint64_t count = 0;
  const bool has_count = colon != std::string::npos;
  if (has_count && !ParsePositive(text.substr(colon + 1), 1'000'000, &count)) {
    return Status::Error("--capture-range-end=" + kind + ":N expects a count N >= 1, got '" + text +
                         "'");
  }
  options->max_windows = has_count ? static_cast<uint32_t>(count) : 0;
  if (kind == "stop" && !has_count) {
    options->range_end = CaptureRangeEnd::kStop;
  } else if (kind == "stop-shutdown" && !has_count) {
    options->range_end = CaptureRangeEnd::kStopShutdown;
  } else if (kind == "repeat") {
    options->range_end = CaptureRangeEnd::kRepeat;
  } else if (kind == "repeat-shutdown" && has_count) {
    options->range_end = CaptureRangeEnd::kRepeatShutdown;
  } else {
    return Status::Error("unknown --capture-range-end '" + text +
                         "'; expected stop, stop-shutdown, repeat[:N] or repeat-shutdown:N");
  }
  if (!options->repeats()) options->max_windows = 1;
  return Status::Ok();
}

// RANGE, RANGE@DOMAIN or RANGE@*: the domain follows the last '@'.
Status ParseNvtxCapture(const std::string& text, collector::CaptureOptions* options) {
  const size_t at = text.rfind('@');
  options->nvtx_message = text.substr(0, at);
  const std::string domain = at == std::string::npos ? "" : text.substr(at + 1);
  options->nvtx_any_domain = domain == "*";
  options->nvtx_domain = options->nvtx_any_domain ? "" : domain;
  if (options->nvtx_message.empty() || (at != std::string::npos && domain.empty())) {
    return Status::Error("--nvtx-capture expects RANGE, RANGE@DOMAIN or RANGE@*, got '" + text +
                         "'");
  }
  if (options->nvtx_message.size() >= protocol::kMaxCaptureText ||
      options->nvtx_domain.size() >= protocol::kMaxCaptureText) {
    return Status::Error("--nvtx-capture is longer than " +
                         std::to_string(protocol::kMaxCaptureText - 1) + " bytes");
  }
  return Status::Ok();
}

}  // namespace

void RegisterCaptureFlags(CLI::App* profile, CaptureFlags* flags) {
  profile->add_option("-y,--delay", flags->delay, "Start collecting after this many seconds")
      ->default_str("0");
  profile->add_option("-d,--duration", flags->duration,
                      "Stop collecting after this many seconds of collection, then apply --kill");
  profile
      ->add_option("--kill", flags->kill,
                   "Signal for the program when collection ends (--duration, stop-shutdown): "
                   "none, sigterm, sigkill or a number")
      ->default_str("sigterm");
  profile
      ->add_option("-c,--capture-range", flags->capture_range,
                   "What starts and stops collection: none, cudaProfilerApi or nvtx")
      ->default_str("none");
  profile
      ->add_option(
          "-p,--nvtx-capture", flags->nvtx_capture,
          "With -c nvtx: the range that triggers collection, RANGE, RANGE@DOMAIN or RANGE@*")
      ->each([flags](const std::string&) { flags->nvtx_capture_given = true; });
  profile
      ->add_option("--capture-range-end", flags->capture_range_end,
                   "At the end of a capture range: stop, stop-shutdown, repeat[:N] or "
                   "repeat-shutdown:N (one report per range, NAME.1.sqlite, NAME.2.sqlite, ...)")
      ->default_str("stop-shutdown")
      ->each([flags](const std::string&) { flags->capture_range_end_given = true; });
}

Status ParseCaptureFlags(const CaptureFlags& flags, collector::CaptureOptions* options) {
  collector::CaptureOptions parsed;
  Status status = ParseSeconds("--delay", flags.delay, true, &parsed.delay_ns);
  if (status.ok() && !flags.duration.empty()) {
    status = ParseSeconds("--duration", flags.duration, false, &parsed.duration_ns);
  }
  if (status.ok()) status = ParseKill(flags.kill, &parsed.kill_signal);
  if (status.ok()) status = ParseRange(flags.capture_range, &parsed.range);
  if (!status.ok()) return status;
  const bool ranged = parsed.range != protocol::CaptureRange::kNone;
  if (flags.nvtx_capture_given && parsed.range != protocol::CaptureRange::kNvtx) {
    return Status::Error("--nvtx-capture needs --capture-range=nvtx");
  }
  if (parsed.range == protocol::CaptureRange::kNvtx && !flags.nvtx_capture_given) {
    return Status::Error("--capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN]");
  }
  if (flags.capture_range_end_given && !ranged) {
    return Status::Error("--capture-range-end needs --capture-range=cudaProfilerApi or nvtx");
  }
  if (ranged && !(status = ParseRangeEnd(flags.capture_range_end, &parsed)).ok()) return status;
  if (flags.nvtx_capture_given && !(status = ParseNvtxCapture(flags.nvtx_capture, &parsed)).ok()) {
    return status;
  }
  *options = parsed;
  return Status::Ok();
}

}  // namespace prof::cli
