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
//
// Report options, as nsys spells them: `-r <name>[:<option>...]` (`cuda_gpu_kern_sum:base`). A
// report lists the options it accepts in ReportSpec::options; report_selection rejects others.
// Before a report's views and SQL run, report_query fills the TEMP table
// `report_options(name TEXT PRIMARY KEY, value)` with the options given for that run (empty
// without), so SQL reads them as `EXISTS (SELECT 1 FROM report_options WHERE name = 'base')`.
// An option with a value is listed as "<name>=<kind>", kind <integer>, <number> or <text>
// (`cpu_sample_sum:tid=<integer>`); given as `-r cpu_sample_sum:tid=4242`, report_selection checks
// the value and SQL reads it as `(SELECT value FROM report_options WHERE name = 'tid')` (NULL when
// not given). A value cannot hold ':' (it separates options). A kind may list the values allowed
// instead: "sort=<self_cpu|calls>".
// Kernel names: a report that prints kernel names reads the view cuda_kernels (every
// CUPTI_ACTIVITY_KIND_KERNEL column plus `name`), lists it in `views` and accepts kKernelNameOptions:
// `name` is demangledName by default, shortName with `base`, mangledName with `mangled` (the
// demangled name where the capture has no mangled one; `base` wins when both are given).
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
  // Options accepted after the name (`-r <name>:<option>`); none by default.
  std::vector<std::string_view> options = {};
  // Tables of which the SQL needs at least one (e.g. kernels, memcpys, memsets: nsys leaves a
  // table out of its export when the capture has no such rows). Each missing one is stood in for
  // by an empty TEMP table made from prof's own DDL of it (storage/tables/), so the SQL can
  // read them all.
  std::vector<std::string_view> any_of_tables = {};
  // Tables the SQL reads when the file has them (NVTX_EVENTS for an option): each missing one is
  // stood in for in the same way, and never makes the report skipped.
  std::vector<std::string_view> optional_tables = {};
  // Whether the SQL reads the steady state (TEMP table analysis_steady_state, steady_state.h),
  // found with the report's step=<text> and warmup=<integer> options as prof analyze's rules take
  // them (defaults: the range with the most time, 1 instance skipped).
  bool reads_steady_state = false;
};

// The options of every report that prints kernel names (see cuda_kernels above).
inline const std::vector<std::string_view> kKernelNameOptions = {"base", "mangled"};

// Every report, default ones in nsys's default order first.
const std::vector<ReportSpec>& AllReports();
// nullptr when no report has that name.
const ReportSpec* FindReport(std::string_view name);
// "nvtx_sum, osrt_sum, ...", for error messages.
std::string ReportNames();

// The embedded SQL of a report or view; nullopt when the build lacks the file.
std::optional<std::string_view> ReportSql(const ReportSpec& report);
std::optional<std::string_view> ViewSql(std::string_view view);
// "CREATE TEMP TABLE IF NOT EXISTS <table> (...)" with the columns of prof's DDL of `table`
// (storage/tables/); nullopt when prof has no DDL of it.
std::optional<std::string> StandInSql(std::string_view table);

}  // namespace prof::stats
