#include "storage/schema_catalog.h"

#include <charconv>

#include "common/split.h"
#include "storage/embedded_schema.h"
#include "storage/report_tables.h"

namespace prof::storage {
const std::vector<TableSpec>& KnownTables() {
  static const std::vector<TableSpec> tables = ReportTables::Specs();
  return tables;
}

const TableSpec* FindTableSpec(std::string_view name) {
  for (const TableSpec& spec : KnownTables()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::optional<std::string_view> TableDdl(std::string_view table_name) {
  const TableSpec* spec = FindTableSpec(table_name);
  if (spec == nullptr) return std::nullopt;
  return spec->ddl;
}

std::vector<EnumRow> EnumRows(std::string_view table_name) {
  std::vector<EnumRow> rows;
  const std::optional<std::string_view> tsv =
      FindEmbeddedFile(EmbeddedSchemaFiles(), "enum_rows.tsv");
  if (!tsv) return rows;
  // Columns: table, id, name, label; the first line is the header.
  const std::vector<std::string_view> lines = Split(*tsv, '\n');
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> fields = Split(lines[i], '\t');
    if (fields.size() != 4 || fields[0] != table_name) continue;
    EnumRow row{0, fields[2], fields[3]};
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), row.id);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace prof::storage
