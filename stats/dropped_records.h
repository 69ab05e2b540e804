// The records a prof capture lost to overload (PROF_SESSION.dropped_records, counted by the
// injection's back-pressure policy), so that `prof stats` can say its numbers are incomplete.
#pragma once

#include <cstdint>
#include <optional>

#include "storage/sqlite_database.h"

namespace prof::stats {

// The count when the report has a PROF_SESSION row dropped_records holding a whole number;
// nullopt for nsys exports and for a table that is missing, odd or unreadable (never an error:
// the reports themselves do not depend on it).
std::optional<int64_t> DroppedRecords(storage::Database* db);

}  // namespace prof::stats
