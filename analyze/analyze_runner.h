// `prof analyze` as a library call: applies rules to a report file and writes their findings to
// stdout or files. Used by cli/analyze_command.cpp.
//
// Contract (as stats_runner.h):
// - The report file is opened read-only and never modified.
// - Every error (file missing, not SQLite, not a report, unknown rule/option/format/unit, a bad
//   option value, an output file that exists or cannot be written) is returned before anything is
//   written to stdout or a file; the message is one line, without the "prof: error: " prefix.
// - A rule whose tables the file lacks is skipped: unless `quiet`, it logs
//   "SKIPPED: <file> could not be analyzed because it does not contain ..." (spdlog::info).
// - A rule that finds nothing prints its "no problem" sentence under its title in column and table
//   format; in csv/tsv/json and in files it writes nothing and logs that sentence as a note.
// - Column and table output put each rule's title and advice above its rows; csv/tsv/json and
//   files hold the rows only.
// - Several files, directories or patterns (stats/report_inputs.h): each rule's rows of every
//   file form one table led by File (and Rank) columns, followed by its summary across the files
//   (stats/rank_summary.h; files <prefix>_<rule>_ranks.<ext>). The files are read by `jobs`
//   threads (stats/report_pool.h), each opened, analyzed and closed in turn; the output's order
//   is the files' order.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "stats/output_options.h"

namespace prof::analyze {

struct AnalyzeOptions : stats::OutputOptions {
  // Rule names (rule_registry.h), each optionally followed by options ("gpu_gaps:gap=300");
  // empty: every default rule. `quiet` also silences the "no problem" notes for files.
  std::vector<std::string> rules;
  // Report files read at once; 0: one per CPU this process may use.
  int jobs = 0;
};

Status RunAnalyze(const std::string& report_path, const AnalyzeOptions& options);
Status RunAnalyze(const std::vector<std::string>& arguments, const AnalyzeOptions& options);

}  // namespace prof::analyze
