#include "storage/table_definition.h"

namespace prof::storage {

std::string CreateTableSql(std::string_view table, const std::vector<ColumnDdl>& columns,
                           std::string_view constraint) {
  constexpr size_t kNameWidth = 28;  // declarations line up, as in nsys's own DDL
  std::string sql = "CREATE TABLE " + std::string(table) + " (";
  for (size_t i = 0; i < columns.size(); ++i) {
    std::string name(columns[i].name);
    name.resize(std::max(name.size() + 1, kNameWidth), ' ');
    sql += (i ? ",\n    " : "\n    ") + name + std::string(columns[i].declaration);
  }
  if (!constraint.empty()) sql += ",\n\n    " + std::string(constraint);
  return sql + "\n);";
}

TableSpec Describe(const EnumTable& table) {
  // Filled from enum_rows.tsv when created (report_schema.cpp), never through an inserter.
  return {std::string(table.name),
          TableCreation::kOnFirstRow,
          {},
          CreateTableSql(
              table.name,
              {{"id", kIntegerPrimaryKey.text}, {"name", kText.text}, {"label", kText.text}}, ""),
          "id, name, label",
          3,
          ""};
}

}  // namespace prof::storage
