#include "stats/lost_records.h"

namespace prof::stats {
namespace {

// Text values only when they are all digits: CAST would read "12 apples" as 12.
constexpr std::string_view kLostRecords =
    "SELECT CAST(value AS INTEGER) FROM main.PROF_SESSION "
    "WHERE name = ?1 AND typeof(value) IN ('integer', 'text') AND value NOT GLOB '*[^0-9]*' "
    "AND value <> '' LIMIT 1";

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

}  // namespace prof::stats
