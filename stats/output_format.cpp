#include "stats/output_format.h"

#include "common/named_entries.h"
#include "common/split.h"
#include "stats/format_renderers.h"

namespace prof::stats {
namespace {

// nsys documents more arguments (nofmt and column widths for column and table, esc for tsv);
// prof implements these.
constexpr std::array<OutputFormat, 5> kOutputFormats = {{
    {"column", "txt", true, RenderColumn, {"nohdr", "nolimit"}},
    {"table", "txt", true, RenderTable, {"nohdr", "nolimit"}},
    {"csv", "csv", false, RenderCsv, {"nohdr", ""}},
    {"tsv", "tsv", false, RenderTsv, {"nohdr", ""}},
    {"json", "json", false, RenderJson, {"", ""}},
}};

std::string ArgumentNames(const OutputFormat& format) {
  std::string names;
  for (std::string_view argument : format.arguments) {
    if (!argument.empty()) names += (names.empty() ? "" : ", ") + std::string(argument);
  }
  return names;
}

Status ApplyArgument(const OutputFormat& format, std::string_view argument, FormatArgs* args) {
  const std::string valid = ArgumentNames(format);
  if (valid.empty()) {
    return Status::Error("format " + std::string(format.name) + " takes no arguments (got '" +
                         std::string(argument) + "')");
  }
  if (argument.empty() || (argument != format.arguments[0] && argument != format.arguments[1])) {
    return Status::Error("unknown argument '" + std::string(argument) + "' of format " +
                         std::string(format.name) + "; valid arguments: " + valid);
  }
  if (argument == "nohdr") args->header = false;
  if (argument == "nolimit") args->width_limit = false;
  return Status::Ok();
}

}  // namespace

const OutputFormat* FindOutputFormat(std::string_view name) {
  return FindByName(kOutputFormats, name);
}

std::string OutputFormatNames() { return JoinNames(kOutputFormats); }

StatusOr<FormatChoice> ParseFormat(std::string_view spec) {
  const std::vector<std::string_view> parts = Split(spec, ':');
  FormatChoice choice;
  choice.format = FindOutputFormat(parts[0]);
  if (choice.format == nullptr) {
    return Status::Error("unknown format '" + std::string(parts[0]) +
                         "'; valid formats: " + OutputFormatNames());
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    PROF_RETURN_IF_ERROR(ApplyArgument(*choice.format, parts[i], &choice.args));
  }
  return choice;
}

}  // namespace prof::stats
