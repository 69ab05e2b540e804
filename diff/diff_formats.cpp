#include "diff/diff_formats.h"

#include <array>

#include "common/named_entries.h"
#include "diff/markdown_format.h"
#include "stats/format_renderers.h"

namespace prof::diff {
namespace {

constexpr std::array<DiffFormat, 6> kDiffFormats = {{
    {"column", false, false, stats::RenderColumn},
    {"table", false, false, stats::RenderTable},
    {"csv", false, false, stats::RenderCsv},
    {"tsv", false, false, stats::RenderTsv},
    {"json", true, false, stats::RenderJson},
    {"markdown", false, true, RenderMarkdown},
}};

}  // namespace

const DiffFormat* FindDiffFormat(std::string_view name) { return FindByName(kDiffFormats, name); }

std::string DiffFormatNames() { return JoinNames(kDiffFormats); }

}  // namespace prof::diff
