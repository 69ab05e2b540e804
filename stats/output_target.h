// Where one `prof stats -o` item sends a report, as nsys spells it: "-" stdout, "@<command>" the
// stdin of a shell command, "." files named after the report file, anything else a file prefix.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace prof::stats {

struct OutputTarget {
  enum class Kind { kStdout, kFiles, kCommand };
  Kind kind = Kind::kStdout;
  // kFiles: the prefix of `<prefix>_<report>.<ext>`; kCommand: the command line.
  std::string value;

  // nsys's default format for the target: column on the console, csv for files and commands.
  std::string_view DefaultFormat() const { return kind == Kind::kStdout ? "column" : "csv"; }
};

// `spec` as a target; "." becomes the prefix `report_path` without its extension (rep.sqlite ->
// rep, so files land next to the report: rep_nvtx_sum.csv). Fails on "" and "@".
StatusOr<OutputTarget> ParseOutputTarget(std::string_view spec, const std::string& report_path);

}  // namespace prof::stats
