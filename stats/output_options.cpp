#include "stats/output_options.h"

namespace prof::stats {

Status ResolveOutputSettings(const OutputOptions& options, OutputSettings* out) {
  out->to_stdout = options.output == "-";
  if (options.output.empty()) return Status::Error("the output (-o) must be '-' or a file prefix");
  const std::string format =
      options.format.empty() ? (out->to_stdout ? "column" : "csv") : options.format;
  PROF_ASSIGN_OR_RETURN(const FormatChoice choice, ParseFormat(format));
  out->format = choice.format;
  out->format_args = choice.args;
  PROF_ASSIGN_OR_RETURN(out->time_unit, ParseTimeUnit(options.time_unit));
  return Status::Ok();
}

}  // namespace prof::stats
