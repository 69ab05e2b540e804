// `prof stats [options] <report.sqlite>`: summary reports (nvtx_sum, osrt_sum, ...) of a report
// written by `prof profile` or exported by nsys, with nsys's option names (stats/stats_runner.h).
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeStatsCommand();

}  // namespace prof::cli
