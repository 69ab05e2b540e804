#include "stats/output_format.h"

#include <array>

#include "stats/format_renderers.h"

namespace prof::stats {
namespace {

constexpr std::array<OutputFormat, 5> kOutputFormats = {{
    {"column", "txt", true, RenderColumn},
    {"table", "txt", true, RenderTable},
    {"csv", "csv", false, RenderCsv},
    {"tsv", "tsv", false, RenderTsv},
    {"json", "json", false, RenderJson},
}};

}  // namespace

const OutputFormat* FindOutputFormat(std::string_view name) {
  for (const OutputFormat& format : kOutputFormats) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

std::string OutputFormatNames() {
  std::string names;
  for (const OutputFormat& format : kOutputFormats) {
    names += (names.empty() ? "" : ", ") + std::string(format.name);
  }
  return names;
}

}  // namespace prof::stats
