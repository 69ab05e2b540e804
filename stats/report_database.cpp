#include "stats/report_database.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stats/duration_summary.h"
#include "stats/nsys_report_file.h"
#include "stats/parallel_groups.h"
#include "stats/sql_statistics.h"
#include "storage/report_name_claim.h"
#include "storage/report_writer.h"
#include "storage/sql_identifier.h"

namespace prof::stats {
namespace {

constexpr std::array<std::string_view, 2> kReportMarkerTables = {"META_DATA_EXPORT", "StringIds"};

Status CheckIsReport(storage::Database* db) {
  for (std::string_view table : kReportMarkerTables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (exists) return Status::Ok();
  }
  return Status::Error(db->path() +
                       " is not a prof or nsys report (it has no META_DATA_EXPORT or StringIds "
                       "table)");
}

// A report's strings and NVTX messages are read through temp views of their tables' names, cut at
// kMaxStringCharacters: one huge string that many rows name (a crafted report, or a runaway NVTX message) otherwise
// makes every reader's time and output grow with its size times the rows (a 50 MB name on 100
// ranges: > 120 s and 5.5 GB of export). prof writes at most 2,048 bytes per string; the bound
// leaves nsys's longest names (C++ template kernels) whole.
constexpr int kMaxStringCharacters = 65536;

// The text columns cut so, by table: the strings, and the messages NVTX ranges carry in their row.
// NVTX_EVENTS keeps its rowid as a column of that name: readers use it as a range's id.
struct CappedTable {
  std::string_view table;
  std::array<std::string_view, 2> text_columns;
  bool rowid;
};
constexpr CappedTable kCappedTables[] = {{"StringIds", {"value", ""}, false},
                                         {"NVTX_EVENTS", {"text", "jsonText"}, true}};

// A temp view of the table's name over main's table, its columns in order, the text ones cut.
Status CapTable(storage::Database* db, const CappedTable& capped) {
  bool exists = false;
  PROF_RETURN_IF_ERROR(db->TableExists(capped.table, &exists));
  if (!exists) return Status::Ok();
  const std::string table = "main." + storage::QuoteIdentifier(capped.table);
  storage::Statement columns;
  PROF_RETURN_IF_ERROR(db->Prepare("SELECT * FROM " + table + " LIMIT 0", &columns));
  std::string select = capped.rowid ? "rowid AS rowid" : "";
  for (int i = 0; i < columns.ColumnCount(); ++i) {
    const std::string name = columns.ColumnName(i);
    const bool text = std::find(capped.text_columns.begin(), capped.text_columns.end(), name) !=
                      capped.text_columns.end();
    select +=
        (select.empty() ? "" : ", ") +
        (text ? "substr(" + storage::QuoteIdentifier(name) + ", 1, " +
                    std::to_string(kMaxStringCharacters) + ") AS " + storage::QuoteIdentifier(name)
              : storage::QuoteIdentifier(name));
  }
  return db->Exec("CREATE TEMP VIEW " + storage::QuoteIdentifier(capped.table) + " AS SELECT " +
                  select + " FROM " + table);
}

Status CapReportStrings(storage::Database* db) {
  for (const CappedTable& capped : kCappedTables) PROF_RETURN_IF_ERROR(CapTable(db, capped));
  return Status::Ok();
}

// The SQL functions of the reports; also what each duration_groups_parallel() worker gets.
Status RegisterReportFunctions(storage::Database* db) {
  PROF_RETURN_IF_ERROR(RegisterStatisticsFunctions(db));
  return RegisterDurationSummary(db);
}

// A name a prof run claimed: its data, if any, is in the partial report beside it (a prof killed
// by SLURM or the OOM killer leaves a readable one).
Status PlaceholderError(const std::string& path) {
  const std::vector<std::string> partials = storage::PartialReportsOf(path);
  if (partials.empty()) {
    return Status::Error(path +
                         " holds no report yet: the prof profile that claimed it is still running, "
                         "or was killed before it wrote anything");
  }
  std::string names;
  for (const std::string& partial : partials) names += (names.empty() ? "" : ", ") + partial;
  return Status::Error(path +
                       " holds no report yet: the prof profile writing it is still running or was "
                       "killed; what it wrote so far is in " +
                       names + " (a report prof reads)");
}

}  // namespace

Status OpenReportDatabase(const std::string& path, storage::Database* out) {
  storage::Database db;
  if (Status opened = storage::Database::OpenReadOnly(path, &db); !opened.ok()) {
    if (storage::IsReportPlaceholder(path)) return PlaceholderError(path);
    return NsysReportFileError(path).value_or(std::move(opened));
  }
  PROF_RETURN_IF_ERROR(CheckIsReport(&db));
  PROF_RETURN_IF_ERROR(CapReportStrings(&db));
  PROF_RETURN_IF_ERROR(RegisterReportFunctions(&db));
  PROF_RETURN_IF_ERROR(RegisterParallelGroups(&db, RegisterReportFunctions));
  *out = std::move(db);
  return Status::Ok();
}

}  // namespace prof::stats
