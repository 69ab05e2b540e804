#include "analyze/steady_state.h"

#include "analyze/embedded_sql.h"

namespace prof::analyze {
namespace {

constexpr std::string_view kSteadyStateTable =
    "CREATE TEMP TABLE IF NOT EXISTS analysis_steady_state (name TEXT NOT NULL, instances INTEGER,"
    " skipped INTEGER, start INTEGER, end INTEGER, medianDuration REAL, steps INTEGER);"
    "DELETE FROM analysis_steady_state;";

// The repeating NVTX range, when the report has one (windows/steady_state.sql).
struct SteadyState {
  std::string name;
  int64_t instances = 0;
  std::optional<int64_t> start;  // unset when warmup= skips every instance
  int64_t end = 0;
  std::optional<double> median_duration;
};

Status FindSteadyState(storage::Database* db, const RuleRequest& request,
                       std::optional<SteadyState>* out) {
  bool has_nvtx = false;
  PROF_RETURN_IF_ERROR(db->TableExists("NVTX_EVENTS", &has_nvtx));
  if (!has_nvtx) return Status::Ok();
  const std::optional<std::string_view> sql =
      FindEmbeddedFile(EmbeddedSqlFiles(), "windows/steady_state.sql");
  if (!sql) return Status::Error("no SQL compiled in for windows/steady_state.sql");
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(*sql, &statement));
  statement.BindText(1, request.Text("step"));
  statement.BindInt64(2, *request.Integer("warmup"));
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  if (!has_row) return Status::Ok();
  SteadyState found;
  found.name = std::string(statement.ColumnText(0));
  found.instances = statement.ColumnInt64(1);
  if (statement.ColumnType(2) != storage::ValueType::kNull) found.start = statement.ColumnInt64(2);
  found.end = statement.ColumnInt64(3);
  if (statement.ColumnType(4) != storage::ValueType::kNull) {
    found.median_duration = statement.ColumnDouble(4);
  }
  *out = std::move(found);
  return Status::Ok();
}

// `steps`: the instances inside the analyzed window (unset for an explicit window).
Status StoreSteadyState(storage::Database* db, const std::optional<SteadyState>& steady,
                        int64_t warmup, std::optional<int64_t> steps) {
  PROF_RETURN_IF_ERROR(db->Exec(kSteadyStateTable));
  if (!steady) return Status::Ok();
  storage::Statement insert;
  if (Status status =
          db->Prepare("INSERT INTO analysis_steady_state VALUES (?, ?, ?, ?, ?, ?, ?)", &insert);
      !status.ok()) {
    return status;
  }
  insert.BindText(1, std::string_view(steady->name));
  insert.BindInt64(2, steady->instances);
  insert.BindInt64(3, warmup);
  insert.BindInt64(4, steady->start);
  insert.BindInt64(5, steady->end);
  insert.BindDouble(6, steady->median_duration);
  insert.BindInt64(7, steps);
  return insert.Run();
}

// The sentence that says which part of the report a steady-state rule looked at.
std::string SteadyStateNote(const RuleRequest& request, const std::optional<SteadyState>& steady,
                            bool explicit_window) {
  const int64_t warmup = *request.Integer("warmup");
  if (explicit_window) return "Window: as given by start=, end= or nvtx=.";
  if (!steady) {
    if (const std::optional<std::string> step = request.Text("step")) {
      return "Whole report analyzed: it has no NVTX range named '" + *step + "'.";
    }
    return "Whole report analyzed: no NVTX range repeats 3 or more times, so no warm-up step "
           "was skipped.";
  }
  const std::string count = std::to_string(steady->instances);
  if (warmup == 0) {
    return "Whole report analyzed (warmup=0); the repeating NVTX range is " + steady->name + " (" +
           count + " instances).";
  }
  if (!steady->start) {
    return "Whole report analyzed: " + steady->name + " has only " + count +
           " instances, not more than warmup=" + std::to_string(warmup) + ".";
  }
  return "Steady state: NVTX ranges " + steady->name + " " + std::to_string(warmup + 1) + " to " +
         count + " of " + count + " (" + std::to_string(*steady->start) + " ns to " +
         std::to_string(steady->end) + " ns); the first " + std::to_string(warmup) +
         " skipped as warm-up (warmup=0 keeps them, step= picks the range).";
}

}  // namespace

Status ResolveSteadyState(storage::Database* db, const RuleRequest& request, bool explicit_window,
                          SteadyStateWindow* out) {
  *out = SteadyStateWindow{};
  const int64_t warmup = *request.Integer("warmup");
  std::optional<SteadyState> steady;
  PROF_RETURN_IF_ERROR(FindSteadyState(db, request, &steady));
  const bool skips_warmup = !explicit_window && steady && steady->start && warmup > 0;
  std::optional<int64_t> steps;
  if (steady && !explicit_window) {
    steps = skips_warmup ? steady->instances - warmup : steady->instances;
  }
  PROF_RETURN_IF_ERROR(StoreSteadyState(db, steady, warmup, steps));
  out->note = SteadyStateNote(request, steady, explicit_window);
  if (skips_warmup) {
    out->start = steady->start;
    out->end = steady->end;
  }
  return Status::Ok();
}

}  // namespace prof::analyze
