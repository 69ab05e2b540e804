// The MPI/torchrun rank a report belongs to, from nsys's table MPI_RANKS (globalTid, rank): one
// row per traced thread of a rank. `prof stats` on several reports prints it in its Rank column.
#pragma once

#include <cstdint>
#include <optional>

#include "storage/sqlite_database.h"

namespace prof::stats {

// The rank when MPI_RANKS exists and holds exactly one distinct rank; nullopt otherwise (no such
// table, no rows, or a merged report holding several ranks). Never an error: a report without a
// readable rank simply has none.
std::optional<int64_t> ReportRank(storage::Database* db);

}  // namespace prof::stats
