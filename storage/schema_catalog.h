// The tables prof knows (report_tables.h defines them) as specs: their DDL, INSERT columns and the
// ENUM_* tables they refer to, looked up by name; and the fixed rows of the ENUM_* tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/table_definition.h"

namespace prof::storage {

struct EnumRow {
  int64_t id;
  std::string_view name;
  std::string_view label;
};

// Every table prof knows, in ReportTables' order (creation order for the kAlways ones).
const std::vector<TableSpec>& KnownTables();
const TableSpec* FindTableSpec(std::string_view name);

// The CREATE TABLE statement; nullopt for a table prof does not know.
std::optional<std::string_view> TableDdl(std::string_view table_name);
// The fixed rows of an ENUM_* table, from enum_rows.tsv, in file order (empty for other tables).
std::vector<EnumRow> EnumRows(std::string_view table_name);

}  // namespace prof::storage
