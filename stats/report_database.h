// Opens a report for `prof stats`: read-only, so a report is never modified, and checked to be a
// report (an nsys SQLite export or a prof report) rather than any SQLite file.
#pragma once

#include <string>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// Opens `path` read-only and registers the reports' SQL functions on it: median() and stdev()
// (sql_statistics.h), duration_groups() and duration_summary() (duration_summary.h) and
// duration_groups_parallel() (parallel_groups.h). Fails when the file is missing, is not SQLite,
// or has neither META_DATA_EXPORT nor StringIds (tables every nsys export and prof report has);
// an nsys .nsys-rep/.qdrep/.qdstrm file gets a line that says how to export it (nsys_report_file.h).
Status OpenReportDatabase(const std::string& path, storage::Database* out);

}  // namespace prof::stats
