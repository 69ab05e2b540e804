// The tables prof writes, where their DDL lives and when they are created.
//
// Adding a table: put its CREATE TABLE in storage/schema/tables/<lowercase name>.sql, fixed rows
// (ENUM_*) in storage/schema/enum_rows.tsv, add the .sql file to storage/CMakeLists.txt and a line
// to the table list in schema_catalog.cpp. The writer then needs a row struct, an InsertSpec and
// a Bind() (row_binders.h), a TableInserter in ReportWriter::Impl (listed in AllTables()) and an
// Add* method.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::storage {

enum class TableCreation {
  kAlways,      // created with every report, even when empty (StringIds, META_DATA_EXPORT, ...)
  kOnFirstRow,  // created when the first row arrives, as nsys's export omits empty tables
};

struct TableSpec {
  std::string_view name;  // exact nsys spelling, e.g. "NVTX_EVENTS", "StringIds"
  TableCreation creation;
  std::vector<std::string_view> enum_tables;  // ENUM_* tables its columns refer to
};

struct EnumRow {
  int64_t id;
  std::string_view name;
  std::string_view label;
};

// Every table prof knows, in creation order for the kAlways ones.
const std::vector<TableSpec>& KnownTables();
const TableSpec* FindTableSpec(std::string_view name);

// "NVTX_EVENTS" -> "nvtx_events": the stem of the table's files under storage/schema/.
std::string SchemaFileStem(std::string_view table_name);
// The CREATE TABLE statement; nullopt when no DDL was compiled in for `table_name`.
std::optional<std::string_view> TableDdl(std::string_view table_name);
// The fixed rows of an ENUM_* table, from enum_rows.tsv, in file order (empty for other tables).
std::vector<EnumRow> EnumRows(std::string_view table_name);

}  // namespace prof::storage
