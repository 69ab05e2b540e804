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
};

Status RunAnalyze(const std::string& report_path, const AnalyzeOptions& options);

}  // namespace prof::analyze
