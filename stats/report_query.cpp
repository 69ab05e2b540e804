#include "stats/report_query.h"

#include <string>

#include "stats/steady_state.h"

namespace prof::stats {
namespace {

// One line naming the report and SQLite's reason (the wrappers' messages quote the whole SQL).
Status QueryError(storage::Database* db, const ReportSpec& report) {
  return Status::Error("report " + std::string(report.name) + " failed on " + db->path() + ": " +
                       db->ErrorText());
}

// report_options holds this run's options only: views read it when queried, not when created,
// so one view serves runs of different options on the same connection.
Status SetOptions(storage::Database* db, const ReportSpec& report,
                  const std::vector<std::string>& options) {
  if (!db->Exec("CREATE TEMP TABLE IF NOT EXISTS report_options (name TEXT PRIMARY KEY, value);"
                "DELETE FROM report_options;")
           .ok()) {
    return QueryError(db, report);
  }
  storage::Statement insert;
  if (!db->Prepare("INSERT OR IGNORE INTO report_options VALUES (?1, ?2)", &insert).ok()) {
    return QueryError(db, report);
  }
  for (const std::string& option : options) {
    // "<flag>" or "<name>=<value>" (report_selection checked it).
    const size_t equals = option.find('=');
    const std::string_view text(option);
    insert.BindText(1, text.substr(0, equals));
    if (equals == std::string::npos) {
      insert.BindNull(2);
    } else {
      insert.BindText(2, text.substr(equals + 1));
    }
    if (!insert.Run().ok()) return QueryError(db, report);
  }
  return Status::Ok();
}

// The value of option `name` (given as "<name>=<value>"); unset when not given.
std::optional<std::string> OptionValue(const std::vector<std::string>& options,
                                       std::string_view name) {
  for (const std::string& option : options) {
    if (option.size() > name.size() && option.compare(0, name.size(), name) == 0 &&
        option[name.size()] == '=') {
      return option.substr(name.size() + 1);
    }
  }
  return std::nullopt;
}

// analysis_steady_state as prof analyze fills it for a rule without start=/end=/nvtx=.
Status SetSteadyState(storage::Database* db, const std::vector<std::string>& options) {
  const std::optional<std::string> warmup_text = OptionValue(options, "warmup");
  const int64_t warmup = warmup_text ? std::stoll(*warmup_text) : 1;  // report_selection checked it
  if (warmup < 0) return Status::Error("option warmup takes an integer of 0 or more");
  std::optional<SteadyState> steady;
  PROF_RETURN_IF_ERROR(FindSteadyState(db, OptionValue(options, "step"), warmup, &steady));
  std::optional<int64_t> steps;
  if (steady) steps = steady->start && warmup > 0 ? steady->instances - warmup : steady->instances;
  return StoreSteadyState(db, steady, warmup, steps);
}

Status CreateStandIns(storage::Database* db, const ReportSpec& report) {
  std::vector<std::string_view> tables = report.any_of_tables;
  tables.insert(tables.end(), report.optional_tables.begin(), report.optional_tables.end());
  for (std::string_view table : tables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (exists) continue;
    const std::optional<std::string> sql = StandInSql(table);
    if (!sql) return Status::Error("no stand-in SQL compiled in for table " + std::string(table));
    if (!db->Exec(*sql).ok()) return QueryError(db, report);
  }
  return Status::Ok();
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
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    *present = *present && exists;
  }
  bool any = report.any_of_tables.empty();
  for (std::string_view table : report.any_of_tables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    any = any || exists;
  }
  *present = *present && any;
  return Status::Ok();
}

Status RunReportQuery(storage::Database* db, const ReportSpec& report, ResultTable* out) {
  return RunReportQuery(db, report, {}, out);
}

Status RunReportQuery(storage::Database* db, const ReportSpec& report,
                      const std::vector<std::string>& options, ResultTable* out) {
  const std::optional<std::string_view> sql = ReportSql(report);
  if (!sql) return Status::Error("no SQL compiled in for report " + std::string(report.name));
  PROF_RETURN_IF_ERROR(SetOptions(db, report, options));
  // Before the stand-ins: the steady state reads the file's own NVTX_EVENTS only.
  if (report.reads_steady_state) PROF_RETURN_IF_ERROR(SetSteadyState(db, options));
  PROF_RETURN_IF_ERROR(CreateStandIns(db, report));
  PROF_RETURN_IF_ERROR(CreateViews(db, report));
  if (!RunQuery(db, *sql, out).ok()) return QueryError(db, report);
  return Status::Ok();
}

Status RunQuery(storage::Database* db, std::string_view sql, ResultTable* out) {
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(sql, &statement));
  ResultTable table;
  for (int column = 0; column < statement.ColumnCount(); ++column) {
    table.columns.push_back(statement.ColumnName(column));
  }
  bool has_row = false;
  while (true) {
    PROF_RETURN_IF_ERROR(statement.Step(&has_row));
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
