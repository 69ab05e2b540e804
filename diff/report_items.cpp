#include "diff/report_items.h"

#include <initializer_list>
#include <set>
#include <utility>
#include <vector>

#include "diff/item_queries.h"
#include "diff/run_span.h"
#include "diff/waits.h"
#include "stats/report_database.h"
#include "stats/report_registry.h"

namespace prof::diff {
namespace {

Status QueryError(storage::Database* db, ItemKind kind) {
  return Status::Error(std::string(ItemKindName(kind)) + " items failed on " + db->path() + ": " +
                       db->ErrorText());
}

Status OptionsError(storage::Database* db) {
  return Status::Error("cannot set the diff options on " + db->path() + ": " + db->ErrorText());
}

// Runs an INSERT with `values` bound to ?1, ?2, ...
Status InsertRow(storage::Database* db, std::string_view sql,
                 std::initializer_list<std::string_view> values) {
  storage::Statement insert;
  if (!db->Prepare(sql, &insert).ok()) return OptionsError(db);
  int index = 1;
  for (std::string_view value : values) insert.BindText(index++, value);
  if (!insert.Run().ok()) return OptionsError(db);
  return Status::Ok();
}

// report_options is what stats/views/cuda_kernels.sql reads; diff_options and
// diff_wait_functions what diff/queries read.
Status SetOptions(storage::Database* db, const ItemOptions& options) {
  if (!db->Exec("CREATE TEMP TABLE report_options (name TEXT PRIMARY KEY);"
                "CREATE TEMP TABLE diff_options (name TEXT PRIMARY KEY, value TEXT);"
                "CREATE TEMP TABLE diff_wait_functions (name TEXT PRIMARY KEY);")
           .ok()) {
    return OptionsError(db);
  }
  for (std::string_view wait : WaitFunctions()) {
    PROF_RETURN_IF_ERROR(InsertRow(db, "INSERT INTO diff_wait_functions VALUES (?1)", {wait}));
  }
  if (options.kernel_name != "demangled") {
    Status status = InsertRow(db, "INSERT INTO report_options VALUES (?1)", {options.kernel_name});
    if (!status.ok()) return status;
  }
  constexpr std::string_view kInsertDiffOption = "INSERT INTO diff_options VALUES (?1, ?2)";
  PROF_RETURN_IF_ERROR(InsertRow(db, kInsertDiffOption, {"kernel_key", options.kernel_key}));
  if (options.range) return InsertRow(db, kInsertDiffOption, {"range", *options.range});
  return Status::Ok();
}

// Appends the tables of `tables` that `db` lacks to `missing`.
Status FindMissing(storage::Database* db, const std::vector<std::string_view>& tables,
                   std::vector<std::string_view>* missing) {
  for (std::string_view table : tables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (!exists) missing->push_back(table);
  }
  return Status::Ok();
}

// Whether the report has the query's tables; if so, stands in for its missing any-of and
// optional tables.
Status PrepareTables(storage::Database* db, const ItemQuery& query, bool* runnable) {
  std::vector<std::string_view> missing_required, stand_ins;
  PROF_RETURN_IF_ERROR(FindMissing(db, query.required_tables, &missing_required));
  PROF_RETURN_IF_ERROR(FindMissing(db, query.any_of_tables, &stand_ins));
  const bool has_any_of =
      query.any_of_tables.empty() || stand_ins.size() < query.any_of_tables.size();
  *runnable = missing_required.empty() && has_any_of;
  if (!*runnable) return Status::Ok();
  PROF_RETURN_IF_ERROR(FindMissing(db, query.optional_tables, &stand_ins));
  for (std::string_view table : stand_ins) {
    const std::optional<std::string> sql = stats::StandInSql(table);
    if (!sql) return Status::Error("no stand-in SQL compiled in for table " + std::string(table));
    if (!db->Exec(*sql).ok()) return QueryError(db, query.kind);
  }
  return Status::Ok();
}

// Creates the query's views that no earlier query of this report created: the report does not
// change between queries, so a view built once (thread_states, a TEMP table) serves them all.
Status CreateViews(storage::Database* db, const ItemQuery& query,
                   std::set<std::string_view>* created) {
  for (std::string_view view : query.views) {
    if (!created->insert(view).second) continue;
    std::optional<std::string_view> sql = DiffViewSql(view);
    if (!sql) sql = stats::ViewSql(view);
    if (!sql) return Status::Error("no SQL compiled in for view " + std::string(view));
    if (!db->Exec(*sql).ok()) return QueryError(db, query.kind);
  }
  return Status::Ok();
}

Status ReadItems(storage::Database* db, const ItemQuery& query, ReportItems* items) {
  storage::Statement statement;
  if (!db->Prepare(query.sql, &statement).ok()) return QueryError(db, query.kind);
  bool has_row = false;
  while (true) {
    if (!statement.Step(&has_row).ok()) return QueryError(db, query.kind);
    if (!has_row) break;
    ItemStats& stats = (*items)[{query.kind, std::string(statement.ColumnText(0))}];
    stats.instances = statement.ColumnInt64(1);
    stats.total_ns = statement.ColumnInt64(2);
    if (!statement.ColumnIsNull(3)) stats.median_ns = statement.ColumnDouble(3);
    constexpr int kExcludingWaits = 4;
    if (statement.ColumnCount() > kExcludingWaits && !statement.ColumnIsNull(kExcludingWaits)) {
      stats.excluding_waits_ns = statement.ColumnDouble(kExcludingWaits);
    }
  }
  return Status::Ok();
}

}  // namespace

Status LoadReport(const std::string& path, const ItemOptions& options, LoadedReport* out) {
  storage::Database db;
  PROF_RETURN_IF_ERROR(stats::OpenReportDatabase(path, &db));
  PROF_RETURN_IF_ERROR(SetOptions(&db, options));
  ReportItems items;
  std::set<std::string_view> created_views;
  for (const ItemQuery& query : AllItemQueries()) {
    bool runnable = false;
    PROF_RETURN_IF_ERROR(PrepareTables(&db, query, &runnable));
    if (!runnable) continue;
    PROF_RETURN_IF_ERROR(CreateViews(&db, query, &created_views));
    PROF_RETURN_IF_ERROR(ReadItems(&db, query, &items));
  }
  int64_t run_ns = 0;
  PROF_RETURN_IF_ERROR(ReadRunSpan(&db, &run_ns));
  *out = {std::move(items), run_ns};
  return Status::Ok();
}

}  // namespace prof::diff
