#include "stats/lost_records.h"

namespace prof::stats {
namespace {

// Text values only when they are all digits: CAST would read "12 apples" as 12.
constexpr std::string_view kLostRecords =
    "SELECT CAST(value AS INTEGER) FROM main.PROF_SESSION "
    "WHERE name = ?1 AND typeof(value) IN ('integer', 'text') AND value NOT GLOB '*[^0-9]*' "
    "AND value <> '' LIMIT 1";

constexpr std::string_view kDataProblems =
    "SELECT name, value, description FROM main.PROF_STATS "
    "WHERE value > 0 AND severity <> 'info' ORDER BY rowid";

}  // namespace

std::optional<int64_t> LostRecords(storage::Database* db, std::string_view name) {
  bool exists = false;
  if (!db->TableExists("PROF_SESSION", &exists).ok() || !exists) return std::nullopt;
  storage::Statement query;
  if (!db->Prepare(kLostRecords, &query).ok()) return std::nullopt;
  query.BindText(1, name);
  bool has_row = false;
  if (!query.Step(&has_row).ok() || !has_row) return std::nullopt;
  return query.ColumnInt64(0);
}

std::vector<DataProblem> DataProblems(storage::Database* db) {
  std::vector<DataProblem> problems;
  bool exists = false;
  if (!db->TableExists("PROF_STATS", &exists).ok() || !exists) return problems;
  storage::Statement query;
  if (!db->Prepare(kDataProblems, &query).ok()) return problems;
  bool has_row = false;
  while (query.Step(&has_row).ok() && has_row) {
    problems.push_back(
        {std::string(query.ColumnText(0)), query.ColumnInt64(1), std::string(query.ColumnText(2))});
  }
  return problems;
}

}  // namespace prof::stats
