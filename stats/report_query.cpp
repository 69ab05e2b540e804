#include "stats/report_query.h"

#include <string>

namespace prof::stats {
namespace {

// One line naming the report and SQLite's reason (the wrappers' messages quote the whole SQL).
Status QueryError(storage::Database* db, const ReportSpec& report) {
  return Status::Error("report " + std::string(report.name) + " failed on " + db->path() + ": " +
                       db->ErrorText());
}

Status CreateViews(storage::Database* db, const ReportSpec& report) {
  for (std::string_view view : report.views) {
    const std::optional<std::string_view> sql = ViewSql(view);
    if (!sql) return Status::Error("no SQL compiled in for view " + std::string(view));
    if (!db->Exec(*sql).ok()) return QueryError(db, report);
  }
  return Status::Ok();
}

Cell ReadCell(const storage::Statement& statement, int column) {
  switch (statement.ColumnType(column)) {
    case storage::ValueType::kInteger:
      return statement.ColumnInt64(column);
    case storage::ValueType::kFloat:
      return statement.ColumnDouble(column);
    case storage::ValueType::kText:
    case storage::ValueType::kBlob:
      return std::string(statement.ColumnText(column));
    case storage::ValueType::kNull:
      break;
  }
  return std::monostate{};
}

}  // namespace

Status HasRequiredTables(storage::Database* db, const ReportSpec& report, bool* present) {
  *present = true;
  for (std::string_view table : report.required_tables) {
    bool exists = false;
    if (Status status = db->TableExists(table, &exists); !status.ok()) return status;
    *present = *present && exists;
  }
  return Status::Ok();
}

Status RunReportQuery(storage::Database* db, const ReportSpec& report, ResultTable* out) {
  const std::optional<std::string_view> sql = ReportSql(report);
  if (!sql) return Status::Error("no SQL compiled in for report " + std::string(report.name));
  if (Status status = CreateViews(db, report); !status.ok()) return status;
  storage::Statement statement;
  if (!db->Prepare(*sql, &statement).ok()) return QueryError(db, report);

  ResultTable table;
  for (int column = 0; column < statement.ColumnCount(); ++column) {
    table.columns.push_back(statement.ColumnName(column));
  }
  bool has_row = false;
  while (true) {
    if (!statement.Step(&has_row).ok()) return QueryError(db, report);
    if (!has_row) break;
    std::vector<Cell>& row = table.rows.emplace_back();
    for (int column = 0; column < statement.ColumnCount(); ++column) {
      row.push_back(ReadCell(statement, column));
    }
  }
  *out = std::move(table);
  return Status::Ok();
}

}  // namespace prof::stats
