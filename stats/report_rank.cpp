#include "stats/report_rank.h"

namespace prof::stats {

std::optional<int64_t> ReportRank(storage::Database* db) {
  bool exists = false;
  if (!db->TableExists("MPI_RANKS", &exists).ok() || !exists) return std::nullopt;
  storage::Statement statement;
  // MIN = MAX means one distinct rank; NULL ranks are ignored by both.
  if (!db->Prepare("SELECT MIN(rank), MAX(rank) FROM MPI_RANKS", &statement).ok()) {
    return std::nullopt;
  }
  bool has_row = false;
  if (!statement.Step(&has_row).ok() || !has_row) return std::nullopt;
  const std::optional<int64_t> lowest = statement.ColumnOptionalInt64(0);
  const std::optional<int64_t> highest = statement.ColumnOptionalInt64(1);
  if (!lowest || lowest != highest) return std::nullopt;
  return lowest;
}

}  // namespace prof::stats
