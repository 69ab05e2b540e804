#include "storage/report_schema.h"

#include <algorithm>

#include "storage/schema_catalog.h"

namespace prof::storage {

Status ReportSchema::CreateAlwaysTables() {
  for (const TableSpec& spec : KnownTables()) {
    if (spec.creation != TableCreation::kAlways) continue;
    PROF_RETURN_IF_ERROR(EnsureTable(spec.name));
  }
  return Status::Ok();
}

bool ReportSchema::HasTable(std::string_view table) const {
  return std::find(tables_.begin(), tables_.end(), table) != tables_.end();
}

Status ReportSchema::EnsureTable(std::string_view table) {
  if (HasTable(table)) return Status::Ok();
  const TableSpec* spec = FindTableSpec(table);
  if (spec == nullptr) return Status::Error("unknown report table " + std::string(table));
  PROF_RETURN_IF_ERROR(CreateTable(table));
  for (std::string_view enum_table : spec->enum_tables) {
    PROF_RETURN_IF_ERROR(EnsureTable(enum_table));
  }
  return Status::Ok();
}

Status ReportSchema::CreateTable(std::string_view table) {
  const std::optional<std::string_view> ddl = TableDdl(table);
  if (!ddl) return Status::Error("no DDL compiled in for report table " + std::string(table));
  PROF_RETURN_IF_ERROR(db_->Exec(*ddl));
  tables_.emplace_back(table);
  return InsertEnumRows(table);
}

Status ReportSchema::InsertEnumRows(std::string_view table) {
  const std::vector<EnumRow> rows = EnumRows(table);
  if (rows.empty()) return Status::Ok();
  Statement insert;
  // The table name comes from the compiled-in catalog, never from input.
  Status status = db_->Prepare(
      "INSERT INTO " + std::string(table) + " (id, name, label) VALUES (?1, ?2, ?3)", &insert);
  for (size_t i = 0; status.ok() && i < rows.size(); ++i) {
    insert.BindInt64(1, rows[i].id);
    insert.BindText(2, rows[i].name);
    insert.BindText(3, rows[i].label);
    status = insert.Run();
  }
  return status;
}

}  // namespace prof::storage
