// `prof diff` as a library call: loads the base and new reports, compares their items
// (item_comparison.h) and writes the rows to stdout or a file. The command line maps the result
// to exit codes: 0 nothing regressed, 1 something regressed, 2 a failed Status.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "diff/item_comparison.h"
#include "diff/min_time.h"
#include "diff/report_items.h"

namespace prof::diff {

struct DiffOptions {
  std::vector<std::string> base_reports;  // one or more
  std::vector<std::string> new_reports;   // one or more
  double threshold_pct = 5;
  MinTime min_time;          // --min-time and --min-share
  bool count_waits = false;  // let grown waits (waits.h) fail the gate
  ItemOptions items;
  std::string format = "column";  // diff_formats.h
  std::string output = "-";       // "-" for stdout, else the file written
  bool force_overwrite = false;
  std::string time_unit = "nsec";  // of the human formats' time columns
};

struct DiffOutcome {
  int regressed = 0;    // items with verdict regressed
  std::string summary;  // DiffSummary's line
};

// Fails, before writing anything, on an invalid option, an unreadable or non-report file, an
// existing output file (without force_overwrite), reports with no item at all, or a --range that
// no report has.
Status RunDiff(const DiffOptions& options, DiffOutcome* outcome);

}  // namespace prof::diff
