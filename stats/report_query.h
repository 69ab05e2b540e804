// Runs one report's SQL on an open report database and collects its rows.
#pragma once

#include "common/status.h"
#include "stats/report_registry.h"
#include "stats/result_table.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// Whether `db` has every table `report` reads.
Status HasRequiredTables(storage::Database* db, const ReportSpec& report, bool* present);

// Creates the report's views (TEMP, so the file is untouched), runs its SQL and returns every row.
// `db` must come from OpenReportDatabase and have the required tables.
Status RunReportQuery(storage::Database* db, const ReportSpec& report, ResultTable* out);

}  // namespace prof::stats
