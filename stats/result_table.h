// The rows a report query returned, as the output formats and the time-unit conversion see them.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace prof::stats {

// One value: SQL NULL, INTEGER, REAL or TEXT (a BLOB is read as text).
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

struct ResultTable {
  std::vector<std::string> columns;     // the query's column names, the report's headers
  std::vector<std::vector<Cell>> rows;  // every row has columns.size() cells
};

inline bool IsNumber(const Cell& cell) {
  return std::holds_alternative<int64_t>(cell) || std::holds_alternative<double>(cell);
}

}  // namespace prof::stats
