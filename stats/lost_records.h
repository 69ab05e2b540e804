// What went wrong with a prof capture's data, so that `prof stats` can say its numbers are
// incomplete: the records lost (PROF_SESSION.dropped_records, counted by the injection's
// back-pressure policy, and torn_records, cut by a process's death), and every other non-zero
// counter of PROF_STATS.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/sqlite_database.h"

namespace prof::stats {

// The count when the report has a PROF_SESSION row `name` (dropped_records, torn_records) holding
// a whole number; nullopt for nsys exports and for a table that is missing, odd or unreadable
// (never an error: the reports themselves do not depend on it).
std::optional<int64_t> LostRecords(storage::Database* db, std::string_view name);

// A non-zero counter of PROF_STATS that is not merely informative.
struct DataProblem {
  std::string name;
  int64_t value;
  std::string description;
};
// In the table's order; empty without a readable PROF_STATS (nsys exports, older prof reports).
std::vector<DataProblem> DataProblems(storage::Database* db);

}  // namespace prof::stats
