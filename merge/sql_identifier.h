// Table and column names in merge's SQL come from the input files (sqlite_master, table_info), so
// they are always written as quoted identifiers, never pasted raw.
#pragma once

#include <string>
#include <string_view>

namespace prof::merge {

// `name` as an SQL identifier: in double quotes, inner quotes doubled.
inline std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace prof::merge
