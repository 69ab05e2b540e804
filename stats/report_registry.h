// The reports `prof stats` knows, in the order they run by default (nsys's order).
//
// A report is SQL plus an entry here. To add one:
//   1. write stats/reports/<name>.sql: a header comment (purpose, units), one comment per output
//      column, column names, order and units as nsys's report of that name; times in ns with
//      headers ending in " (ns)" (--timeunit converts those), REAL values rounded as nsys prints
//      them. It may read median()/stdev() (sql_statistics.h) and views/<view>.sql views;
//   2. list the file in PROF_STATS_SQL_FILES (stats/CMakeLists.txt);
//   3. add its entry to AllReports() in report_registry.cpp.
// The registry test checks that every entry has its SQL and every SQL file has an entry.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::stats {

struct ReportSpec {
  std::string_view name;   // -r value and the SQL file's stem
  std::string_view title;  // shown as " ** <title> (<name>):" before the report
  bool is_default;         // run when no -r is given (and its tables exist)
  // Tables the SQL reads; without one the report is skipped.
  std::vector<std::string_view> required_tables;
  // Views (views/<view>.sql) created on the connection before the SQL runs.
  std::vector<std::string_view> views;
  // What the file lacks when the report is empty: "SKIPPED: <file> does not contain <...>."
  std::string_view data_description;
};

// Every report, default ones in nsys's default order first.
const std::vector<ReportSpec>& AllReports();
// nullptr when no report has that name.
const ReportSpec* FindReport(std::string_view name);
// "nvtx_sum, osrt_sum, ...", for error messages.
std::string ReportNames();

// The embedded SQL of a report or view; nullopt when the build lacks the file.
std::optional<std::string_view> ReportSql(const ReportSpec& report);
std::optional<std::string_view> ViewSql(std::string_view view);

}  // namespace prof::stats
