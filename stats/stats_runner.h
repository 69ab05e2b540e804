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
// - Several report files: each report runs over every file and prints one table, the rows of the
//   files in the order given, each row led by the file's `File` (base name) and, when any file
//   has a rank (MPI_RANKS), `Rank` column (report_file_columns.h). `Time (%)` stays a share
//   within its file. With -o each report still goes to one file, <prefix>_<report>.<ext>. After it
//   comes the report's summary across the files (rank_summary.h; <prefix>_<report>_ranks.<ext>).
// - Arguments may be directories and patterns (report_inputs.h). The files are read by `jobs`
//   threads (report_pool.h), each file opened, queried and closed in turn, so memory holds the
//   result tables, not the files; the output's order is the files' order.
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
  // Report files read at once; 0: one per CPU this process may use.
  int jobs = 0;
};

Status RunStats(const std::string& report_path, const StatsOptions& options);
// The same over several files, directories or patterns (one file: exactly RunStats of that file,
// no File column).
Status RunStats(const std::vector<std::string>& arguments, const StatsOptions& options);

}  // namespace prof::stats
