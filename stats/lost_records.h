// The records a prof capture lost (PROF_SESSION.dropped_records, counted by the injection's
// back-pressure policy, and torn_records, cut by a process's death), so that `prof stats` can say
// its numbers are incomplete.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "storage/sqlite_database.h"

namespace prof::stats {

// The count when the report has a PROF_SESSION row `name` (dropped_records, torn_records) holding
// a whole number; nullopt for nsys exports and for a table that is missing, odd or unreadable
// (never an error: the reports themselves do not depend on it).
std::optional<int64_t> LostRecords(storage::Database* db, std::string_view name);

}  // namespace prof::stats
