// Table and column names that come from a report (sqlite_master, table_info, a result's columns)
// are always written into SQL as quoted identifiers, never pasted raw: a report is untrusted.
#pragma once

#include <string>
#include <string_view>

namespace prof::storage {

// `name` as an SQL identifier: in double quotes, inner quotes doubled.
inline std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace prof::storage
