#include "diff/diff_formats.h"

#include <array>

#include "common/named_entries.h"
#include "diff/markdown_format.h"
#include "stats/format_renderers.h"

namespace prof::diff {
namespace {

// A diff's rows are looked up by name: whole cells, where stats clips as nsys does.
constexpr stats::FormatArgs kDiffFormatArgs = stats::WithWholeCells({});

template <std::string (*Render)(const stats::ResultTable&, const stats::FormatArgs&)>
std::string WithDiffArgs(const stats::ResultTable& table) {
  return Render(table, kDiffFormatArgs);
}

constexpr std::array<DiffFormat, 6> kDiffFormats = {{
    {"column", false, false, WithDiffArgs<stats::RenderColumn>},
    {"table", false, false, WithDiffArgs<stats::RenderTable>},
    {"csv", false, false, WithDiffArgs<stats::RenderCsv>},
    {"tsv", false, false, WithDiffArgs<stats::RenderTsv>},
    {"json", true, false, WithDiffArgs<stats::RenderJson>},
    {"markdown", false, true, RenderMarkdown},
}};

}  // namespace

const DiffFormat* FindDiffFormat(std::string_view name) { return FindByName(kDiffFormats, name); }

std::string DiffFormatNames() { return JoinNames(kDiffFormats); }

}  // namespace prof::diff
