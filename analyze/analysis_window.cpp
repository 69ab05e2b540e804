#include "analyze/analysis_window.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "analyze/steady_state.h"

namespace prof::analyze {
namespace {

// A table of the file with start and end columns, and how its rows name their thread.
struct TimedTable {
  std::string name;
  bool has_global_tid = false;
  bool has_global_pid = false;
};

// The window a rule sees; scope is "thread", "process" or NULL (time only).
constexpr std::string_view kWindowTable =
    "CREATE TEMP TABLE IF NOT EXISTS analysis_window "
    "(start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, scope TEXT);"
    "DELETE FROM analysis_window;";

constexpr std::string_view kTimedTables = R"(
SELECT m.name,
       EXISTS (SELECT 1 FROM pragma_table_info(m.name, 'main') WHERE name = 'globalTid'),
       EXISTS (SELECT 1 FROM pragma_table_info(m.name, 'main') WHERE name = 'globalPid')
FROM main.sqlite_master AS m
WHERE m.type = 'table'
  AND EXISTS (SELECT 1 FROM pragma_table_info(m.name, 'main') WHERE name = 'start')
  AND EXISTS (SELECT 1 FROM pragma_table_info(m.name, 'main') WHERE name = 'end'))";

// The first range named `<text>[@<domain>]`: its text is the registered string when it has one.
// 59/70: push/pop ranges, 60/71: start/end ranges, 75: domain creation (its name in text).
constexpr std::string_view kFindNvtxRange = R"(
WITH domains AS (
  SELECT domainId, globalTid >> 24 AS process, text FROM main.NVTX_EVENTS WHERE eventType = 75
)
SELECT range.start, range.end, range.globalTid, range.eventType IN (59, 70)
FROM main.NVTX_EVENTS AS range
LEFT JOIN domains ON domains.domainId = range.domainId AND domains.process = range.globalTid >> 24
LEFT JOIN StringIds AS name ON name.id = range.textId
WHERE range.eventType IN (59, 60, 70, 71) AND range.end IS NOT NULL
  AND coalesce(name.value, range.text) || coalesce('@' || domains.text, '') = ?
ORDER BY range.start
LIMIT 1)";

// Rows that overlap [w.start, w.end), the test nsys's rules use.
constexpr std::string_view kOverlaps =
    "((t.start >= w.start AND t.start < w.end) OR (t.end >= w.start AND t.end < w.end) OR "
    "(t.start < w.start AND t.end >= w.end))";
constexpr std::string_view kSameThreadOrProcess =
    " AND (w.scope IS NOT 'thread' OR t.globalTid = w.globalTid)"
    " AND (w.scope IS NOT 'process' OR t.globalTid >> 24 = w.globalTid >> 24)";
constexpr std::string_view kSameProcess =
    " AND (w.scope IS NULL OR t.globalPid >> 24 = w.globalTid >> 24)";

std::string QuotedName(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

Status ListTimedTables(storage::Database* db, std::vector<TimedTable>* out) {
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(kTimedTables, &statement));
  bool has_row = false;
  while (true) {
    PROF_RETURN_IF_ERROR(statement.Step(&has_row));
    if (!has_row) return Status::Ok();
    out->push_back({std::string(statement.ColumnText(0)), statement.ColumnInt64(1) != 0,
                    statement.ColumnInt64(2) != 0});
  }
}

std::string FilterViewSql(const TimedTable& table) {
  // rowid too, as nsys does: views have none of their own, and SQL reads rows by it.
  std::string sql = "CREATE TEMP VIEW " + QuotedName(table.name) +
                    " AS SELECT t.rowid AS rowid, t.* FROM main." + QuotedName(table.name) +
                    " AS t, temp.analysis_window AS w WHERE " + std::string(kOverlaps);
  if (table.has_global_tid) {
    sql += kSameThreadOrProcess;
  } else if (table.has_global_pid) {
    sql += kSameProcess;
  }
  return sql;
}

// The window of the NVTX range `text`; `*found` false when the file has no such range.
struct NvtxWindow {
  int64_t start = 0;
  int64_t end = 0;
  int64_t global_tid = 0;
  bool push_pop = false;
};

Status FindNvtxRange(storage::Database* db, const std::string& text,
                     std::optional<NvtxWindow>* out) {
  bool has_nvtx = false;
  PROF_RETURN_IF_ERROR(db->TableExists("NVTX_EVENTS", &has_nvtx));
  if (!has_nvtx) return Status::Ok();
  storage::Statement statement;
  PROF_RETURN_IF_ERROR(db->Prepare(kFindNvtxRange, &statement));
  statement.BindText(1, std::string_view(text));
  bool has_row = false;
  PROF_RETURN_IF_ERROR(statement.Step(&has_row));
  if (has_row) {
    *out = NvtxWindow{statement.ColumnInt64(0), statement.ColumnInt64(1), statement.ColumnInt64(2),
                      statement.ColumnInt64(3) != 0};
  }
  return Status::Ok();
}

Status StoreWindow(storage::Database* db, int64_t start, int64_t end,
                   const std::optional<NvtxWindow>& range) {
  PROF_RETURN_IF_ERROR(db->Exec(kWindowTable));
  storage::Statement insert;
  PROF_RETURN_IF_ERROR(db->Prepare("INSERT INTO analysis_window VALUES (?, ?, ?, ?)", &insert));
  insert.BindInt64(1, start);
  insert.BindInt64(2, end);
  if (range) {
    insert.BindInt64(3, range->global_tid);
    insert.BindText(4, std::string_view(range->push_pop ? "thread" : "process"));
  } else {
    insert.BindNull(3);
    insert.BindNull(4);
  }
  return insert.Run();
}

}  // namespace

Status ApplyAnalysisWindow(storage::Database* db, const RuleRequest& request, WindowOutcome* out) {
  *out = WindowOutcome{};
  // Empty unless this run has a window: SQL that must filter tables without an end column (CPU
  // samples) reads it.
  PROF_RETURN_IF_ERROR(db->Exec(kWindowTable));
  std::vector<TimedTable> tables;
  PROF_RETURN_IF_ERROR(ListTimedTables(db, &tables));
  for (const TimedTable& table : tables) {
    PROF_RETURN_IF_ERROR(db->Exec("DROP VIEW IF EXISTS temp." + QuotedName(table.name)));
  }
  std::optional<int64_t> start = request.Integer("start");
  std::optional<int64_t> end = request.Integer("end");
  const std::optional<std::string> nvtx = request.Text("nvtx");
  if (request.Integer("warmup")) {
    SteadyStateWindow steady;
    PROF_RETURN_IF_ERROR(ResolveSteadyState(db, request, start || end || nvtx, &steady));
    out->note = steady.note;
    if (steady.start) {
      start = steady.start;
      end = steady.end;
    }
  }
  if (!start && !end && !nvtx) return Status::Ok();

  std::optional<NvtxWindow> range;
  if (nvtx) {
    PROF_RETURN_IF_ERROR(FindNvtxRange(db, *nvtx, &range));
    if (!range) {
      out->skip_note = "NVTX range '" + *nvtx + "' could not be found.";
      return Status::Ok();
    }
  }
  const int64_t window_start = start ? *start : range ? range->start : 0;
  const int64_t window_end = end ? *end : range ? range->end : std::numeric_limits<int64_t>::max();
  if (window_start > window_end) {
    out->skip_note = "the window of rule " + std::string(request.rule->name) + " ends (" +
                     std::to_string(window_end) + ") before it starts (" +
                     std::to_string(window_start) + ").";
    return Status::Ok();
  }
  PROF_RETURN_IF_ERROR(StoreWindow(db, window_start, window_end, range));
  for (const TimedTable& table : tables) {
    PROF_RETURN_IF_ERROR(db->Exec(FilterViewSql(table)));
  }
  return Status::Ok();
}

}  // namespace prof::analyze
