// The text of one result cell, shared by every output format.
//
// Numbers are written the way nsys's Python reports print them: integers in decimal, REAL values
// as Python's str(float) does (the shortest digits that read back to the same double, with at least
// one decimal: "7882329.0", "775657.5", "1e-09"); a FixedDecimal with its number of decimals
// ("0.655"). NULL is the empty string.
#pragma once

#include <string>

#include "stats/result_table.h"

namespace prof::stats {

std::string CellText(const Cell& cell);

// CellText with the integer digits of a number grouped in threes ("485,565,904", "7,882,329.0"),
// as nsys's column and table formats show numbers; text and exponent forms are left as they are.
std::string GroupedCellText(const Cell& cell);

}  // namespace prof::stats
