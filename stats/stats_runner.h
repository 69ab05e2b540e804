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

namespace prof::stats {

struct StatsOptions {
  // Report names (report_registry.h), each optionally followed by its options
  // ("cuda_gpu_kern_sum:base"); empty: every default report whose tables the file has.
  std::vector<std::string> reports;
  // column, table, csv, tsv or json; empty: column on stdout, csv into files (nsys's defaults).
  std::string format;
  // "-": stdout. Otherwise a prefix: report R goes to `<prefix>_<R>.<ext>` (txt for column and
  // table, else the format's name).
  std::string output = "-";
  // nsec, usec, msec or sec: the unit of the time columns.
  std::string time_unit = "nsec";
  // Replace existing output files instead of failing.
  bool force_overwrite = false;
  // No notes on stderr (SKIPPED lines, files written).
  bool quiet = false;
};

Status RunStats(const std::string& report_path, const StatsOptions& options);

}  // namespace prof::stats
