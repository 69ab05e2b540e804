// The output options that `prof stats` and `prof analyze` share (-f, -o, --timeunit,
// --force-overwrite, -q), spelled as nsys spells them, and their checked form.
#pragma once

#include <string>

#include "common/status.h"
#include "stats/output_format.h"
#include "stats/time_unit.h"

namespace prof::stats {

struct OutputOptions {
  // column, table, csv, tsv or json, each optionally with arguments (`csv:nohdr`, output_format.h);
  // empty or ".": column on stdout, csv into files and commands (nsys's defaults). prof stats
  // takes a comma list, matched to the reports in order (output_plan.h).
  std::string format;
  // "-": stdout. Otherwise a prefix: table T goes to `<prefix>_<T>.<ext>` (txt for column and
  // table, else the format's name). prof stats also takes "." (the report's own path without its
  // extension, as the prefix), "@<command>" (piped into a shell command) and a comma list.
  std::string output = "-";
  // nsec, usec, msec or sec: the unit of the time columns.
  std::string time_unit = "nsec";
  // Replace existing output files instead of failing.
  bool force_overwrite = false;
  // No notes on stderr (SKIPPED lines, files written).
  bool quiet = false;
};

// The options, checked and looked up.
struct OutputSettings {
  const OutputFormat* format = nullptr;
  FormatArgs format_args;
  TimeUnit time_unit;
  bool to_stdout = true;
};

// One format and one output (prof analyze). Fails with a one-line message on an empty output, an
// unknown format, format argument or time unit.
Status ResolveOutputSettings(const OutputOptions& options, OutputSettings* out);

}  // namespace prof::stats
