// The renderers behind the output formats of output_format.cpp. Each returns the whole report as
// text ending in a newline (an empty text for a headerless table without rows).
#pragma once

#include <string>

#include "stats/output_format.h"
#include "stats/result_table.h"

namespace prof::stats {

// Comma- and tab-separated values with a header line, '\n' line ends; a field that holds the
// separator, a quote or a line break is quoted as Python's csv module does (quotes doubled).
// `nohdr` leaves the header line out.
std::string RenderCsv(const ResultTable& table, const FormatArgs& args);
std::string RenderTsv(const ResultTable& table, const FormatArgs& args);

// A JSON array with one object per row, keys in column order; numbers as JSON numbers, NULL as
// null.
std::string RenderJson(const ResultTable& table, const FormatArgs& args);

// nsys's console layout: each line starts with a space, columns are two spaces apart, headers
// are centered and underlined with dashes, numbers are right-aligned with thousands separators
// and text is left-aligned. Trailing blanks are trimmed. As nsys, a column is as wide as its
// header and widest cell of the first 100 rows, at most 100 characters unless `nolimit`; a wider
// cell is clipped to the width, its last character "…". `nohdr` leaves the header and its
// underline out.
std::string RenderColumn(const ResultTable& table, const FormatArgs& args);
// The same cells in an ASCII box: "+---+" rules and "| cell |" rows.
std::string RenderTable(const ResultTable& table, const FormatArgs& args);

}  // namespace prof::stats
