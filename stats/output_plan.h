// nsys's pairing of `prof stats` reports, formats and outputs. -f and -o take comma lists
// (`-f csv,column -o .,-`); run i is report i with format i and output i, each list's last item
// standing in where it is shorter, for as many runs as the longest list has items. So
// `-r a,b -f csv,column` writes a as csv and b as column, `-r a -f csv,column -o .,-` writes a
// twice (a file, then the console), and a single -f or -o applies to every report.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "stats/output_format.h"
#include "stats/output_options.h"
#include "stats/output_target.h"

namespace prof::stats {

// The -f and -o lists, checked.
struct OutputPlan {
  std::vector<std::string> formats;  // as given; "" or "." is the output's default format
  std::vector<OutputTarget> targets;
};

// One report written once.
struct ReportRun {
  size_t report = 0;  // index into the selected reports
  FormatChoice format;
  OutputTarget target;
};

// Fails on an unknown format or argument, or a malformed output. `report_path` names the files
// of "-o ." (the first report file given).
StatusOr<OutputPlan> ParseOutputPlan(const OutputOptions& options, const std::string& report_path);

// The runs of `report_count` selected reports (none when there are none).
std::vector<ReportRun> PlanRuns(const OutputPlan& plan, size_t report_count);

}  // namespace prof::stats
