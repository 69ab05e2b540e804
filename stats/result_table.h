// The rows a report query returned, as the output formats and the time-unit conversion see them.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace prof::stats {

// A REAL printed with a fixed number of decimals, as nsys prints sizes in MB ("4.194", "0.000").
// Reports return plain REAL; size_unit.h makes these from their size columns.
struct FixedDecimal {
  double value = 0;
  int places = 0;
};

// One value: SQL NULL, INTEGER, REAL, TEXT (a BLOB is read as text), or a fixed-decimal REAL.
using Cell = std::variant<std::monostate, int64_t, double, std::string, FixedDecimal>;

struct ResultTable {
  std::vector<std::string> columns;     // the query's column names, the report's headers
  std::vector<std::vector<Cell>> rows;  // every row has columns.size() cells
};

inline bool IsNumber(const Cell& cell) {
  return std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell) ||
         std::holds_alternative<FixedDecimal>(cell);
}

}  // namespace prof::stats
