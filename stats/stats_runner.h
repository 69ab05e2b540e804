// `prof stats` as a library call: runs summary reports on a report file and writes them to stdout
// or files. Used by cli/stats_command.cpp and by `prof profile --stats=true` after it wrote a
// report.
//
// Contract:
// - The report file is opened read-only and never modified.
// - Every error (file missing, not SQLite, not a report, unknown report/format/unit, an output
//   file that exists or cannot be written) is returned before anything is written to stdout or a
//   file; the message is one line, without the "prof: error: " prefix.
// - A selected report without rows is not an error: unless `quiet`, it logs nsys's
//   "SKIPPED: <file> does not contain <data>." line (spdlog::info, on stderr) and writes nothing.
// - Reports go to stdout or files, never through spdlog.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "stats/output_options.h"

namespace prof::stats {

struct StatsOptions : OutputOptions {
  // Report names (report_registry.h), each optionally followed by its options
  // ("cuda_gpu_kern_sum:base"); empty: every default report whose tables the file has.
  std::vector<std::string> reports;
};

Status RunStats(const std::string& report_path, const StatsOptions& options);

}  // namespace prof::stats
