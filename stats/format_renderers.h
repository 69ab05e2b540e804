// The renderers behind the output formats of output_format.cpp. Each returns the whole report as
// text ending in a newline.
#pragma once

#include <string>

#include "stats/result_table.h"

namespace prof::stats {

// Comma- and tab-separated values with a header line, '\n' line ends; a field that holds the
// separator, a quote or a line break is quoted as Python's csv module does (quotes doubled).
std::string RenderCsv(const ResultTable& table);
std::string RenderTsv(const ResultTable& table);

// A JSON array with one object per row, keys in column order; numbers as JSON numbers, NULL as
// null.
std::string RenderJson(const ResultTable& table);

// nsys's console layout: each line starts with a space, columns are two spaces apart, headers
// are centered and underlined with dashes, numbers are right-aligned with thousands separators
// and text is left-aligned. Trailing blanks are trimmed.
std::string RenderColumn(const ResultTable& table);
// The same cells in an ASCII box: "+---+" rules and "| cell |" rows.
std::string RenderTable(const ResultTable& table);

}  // namespace prof::stats
