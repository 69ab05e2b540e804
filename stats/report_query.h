// Runs one report's SQL on an open report database and collects its rows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "stats/report_registry.h"
#include "stats/result_table.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// Whether `db` has every required table of `report` and, when it lists any_of_tables, one of
// those.
Status HasRequiredTables(storage::Database* db, const ReportSpec& report, bool* present);

// Fills the TEMP table report_options with `options`, creates empty TEMP stand-ins for the
// report's missing any_of_tables and the report's views (all TEMP, so the file is untouched), runs
// its SQL and returns every row. `db` must come from OpenReportDatabase and have the required
// tables; `options` must be ones the report accepts (report_selection checks them).
Status RunReportQuery(storage::Database* db, const ReportSpec& report,
                      const std::vector<std::string>& options, ResultTable* out);
// The same without options.
Status RunReportQuery(storage::Database* db, const ReportSpec& report, ResultTable* out);

// Runs one SELECT statement and returns its columns and every row (also used by `prof analyze`).
// On failure the Status holds the storage layer's message (which quotes the SQL); db->ErrorText()
// has SQLite's reason alone.
Status RunQuery(storage::Database* db, std::string_view sql, ResultTable* out);

}  // namespace prof::stats
