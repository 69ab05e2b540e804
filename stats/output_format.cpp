#include "stats/output_format.h"

#include <array>

#include "common/named_entries.h"
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
  return FindByName(kOutputFormats, name);
}

std::string OutputFormatNames() { return JoinNames(kOutputFormats); }

}  // namespace prof::stats
