// Markdown output of `prof diff -f markdown`, for a pull-request comment: a GitHub-flavoured
// table, numbers right-aligned with thousands separators as the column format shows them.
#pragma once

#include <string>

#include "stats/result_table.h"

namespace prof::diff {

// A header row, an alignment row (`---:` for columns holding numbers) and one row per table row,
// '\n' line ends. `|` in text is escaped as `\|` and line breaks become spaces, so a cell never
// ends its row.
std::string RenderMarkdown(const stats::ResultTable& table);

}  // namespace prof::diff
