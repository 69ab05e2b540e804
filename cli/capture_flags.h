// The capture control options of `prof profile`, spelled as nsys spells them, checked and turned
// into collector::CaptureOptions:
//   -y, --delay=SEC          --duration/-d=SEC        --kill=none|sigterm|sigkill|N
//   -c, --capture-range=none|cudaProfilerApi|nvtx    -p, --nvtx-capture=RANGE[@DOMAIN|@*]
//   --capture-range-end=stop|stop-shutdown|repeat[:N]|repeat-shutdown:N
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "collector/capture_options.h"
#include "common/status.h"

namespace prof::cli {

// The options' text as given; the *_given flags say whether the option was on the command line.
struct CaptureFlags {
  std::string delay = "0";
  std::string duration;  // empty: no limit
  std::string kill = "sigterm";
  std::string capture_range = "none";
  std::string nvtx_capture;
  std::string capture_range_end = "stop-shutdown";
  bool nvtx_capture_given = false;
  bool capture_range_end_given = false;
};

// Adds the options to `profile`, storing their text in *flags (which must outlive parsing).
void RegisterCaptureFlags(CLI::App* profile, CaptureFlags* flags);

// Fails with a message naming the option and the accepted values.
Status ParseCaptureFlags(const CaptureFlags& flags, collector::CaptureOptions* options);

}  // namespace prof::cli
