#include "stats/steady_state.h"

#include "stats/embedded_sql.h"

namespace prof::stats {
namespace {

constexpr std::string_view kSteadyStateTable =
    "CREATE TEMP TABLE IF NOT EXISTS analysis_steady_state (name TEXT NOT NULL, instances INTEGER,"
    " skipped INTEGER, start INTEGER, end INTEGER, medianDuration REAL, steps INTEGER);"
    "DELETE FROM analysis_steady_state;";

}  // namespace

Status FindSteadyState(storage::Database* db, const std::optional<std::string>& step,
                       int64_t warmup, std::optional<SteadyState>* out) {
  out->reset();
  bool has_nvtx = false;
  PROF_RETURN_IF_ERROR(db->TableExists("NVTX_EVENTS", &has_nvtx));
  if (!has_nvtx) return Status::Ok();
  const std::optional<std::string_view> sql =
      FindEmbeddedFile(EmbeddedSqlFiles(), "windows/steady_state.sql");
  if (!sql) return Status::Error("no SQL compiled in for windows/steady_state.sql");
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(*sql, &statement));
  statement.BindText(1, step);
  statement.BindInt64(2, warmup);
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  if (!has_row) return Status::Ok();
  SteadyState found;
  found.name = std::string(statement.ColumnText(0));
  found.instances = statement.ColumnInt64(1);
  found.start = statement.ColumnOptionalInt64(2);
  found.end = statement.ColumnInt64(3);
  if (statement.ColumnType(4) != storage::ValueType::kNull) {
    found.median_duration = statement.ColumnDouble(4);
  }
  *out = std::move(found);
  return Status::Ok();
}

Status StoreSteadyState(storage::Database* db, const std::optional<SteadyState>& steady,
                        int64_t warmup, std::optional<int64_t> steps) {
  PROF_RETURN_IF_ERROR(db->Exec(kSteadyStateTable));
  if (!steady) return Status::Ok();
  storage::Statement insert;
  PROF_RETURN_IF_ERROR(
      db->Prepare("INSERT INTO analysis_steady_state VALUES (?, ?, ?, ?, ?, ?, ?)", &insert));
  insert.BindText(1, std::string_view(steady->name));
  insert.BindInt64(2, steady->instances);
  insert.BindInt64(3, warmup);
  insert.BindInt64(4, steady->start);
  insert.BindInt64(5, steady->end);
  insert.BindDouble(6, steady->median_duration);
  insert.BindInt64(7, steps);
  return insert.Run();
}

}  // namespace prof::stats
