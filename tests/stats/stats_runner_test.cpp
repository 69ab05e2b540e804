// RunStats end to end on hand-made reports: selection, files, SKIPPED reports and every error.
#include "stats/stats_runner.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "stats/report_registry.h"
#include "storage/sqlite_database.h"
#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

namespace fs = std::filesystem;

StatsOptions ToFiles(const std::string& prefix, std::vector<std::string> reports,
                     const std::string& format = "csv") {
  StatsOptions options;
  options.output = prefix;
  options.reports = std::move(reports);
  options.format = format;
  options.quiet = true;
  return options;
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string ErrorOf(const std::string& report_path, const StatsOptions& options) {
  const Status status = RunStats(report_path, options);
  REQUIRE_FALSE(status.ok());
  return status.message();
}

TEST_CASE("default reports are those whose tables exist", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_defaults");
  const std::string out = prof::test::MakeTempDir("stats_runner_defaults_out");
  StatsOptions options = ToFiles(out + "/r", {});
  options.format.clear();  // files default to csv
  REQUIRE(RunStats(report, options).ok());
  // The report has no OSRT_API table: no osrt_sum.
  CHECK(FilesIn(out) == std::vector<std::string>{"r_nvtx_sum.csv"});
  const TextRows rows = ParseCsv(ReadFile(out + "/r_nvtx_sum.csv"));
  REQUIRE(rows.size() == 8);
  CHECK(rows[1] == std::vector<std::string>{"55.9", "2400", "3", "800.0", "800.0", "600", "1000",
                                            "200.0", "PushPop", ":outer"});
}

TEST_CASE("a report without NVTX or OSRT tables runs no default report", "[stats][runner]") {
  const std::string report = MakeReport("runner_no_defaults", {}, "SELECT 1;");
  const std::string out = prof::test::MakeTempDir("stats_runner_no_defaults_out");
  REQUIRE(RunStats(report, ToFiles(out + "/r", {})).ok());
  CHECK(FilesIn(out).empty());
}

TEST_CASE("reports run in the order requested - each once", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_order");
  const std::string out = prof::test::MakeTempDir("stats_runner_order_out");
  REQUIRE(RunStats(report, ToFiles(out + "/r",
                                   {"nvtx_startend_sum", "nvtx_sum", "nvtx_startend_sum"}, "json"))
              .ok());
  CHECK(FilesIn(out) == std::vector<std::string>{"r_nvtx_startend_sum.json", "r_nvtx_sum.json"});
  CHECK(ReadFile(out + "/r_nvtx_startend_sum.json") ==
        "[\n"
        "  {\"Time (%)\": 97.8, \"Total Time (ns)\": 450, \"Instances\": 3, \"Avg (ns)\": 150.0, "
        "\"Med (ns)\": 100.0, \"Min (ns)\": 50, \"Max (ns)\": 300, \"StdDev (ns)\": 132.3, "
        "\"Range\": \":transfer\"},\n"
        "  {\"Time (%)\": 2.2, \"Total Time (ns)\": 10, \"Instances\": 1, \"Avg (ns)\": 10.0, "
        "\"Med (ns)\": 10.0, \"Min (ns)\": 10, \"Max (ns)\": 10, \"StdDev (ns)\": 0.0, "
        "\"Range\": \":outer\"}\n"
        "]\n");
}

TEST_CASE("column and table files are .txt - time units apply", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_text");
  const std::string out = prof::test::MakeTempDir("stats_runner_text_out");
  StatsOptions options = ToFiles(out + "/r", {"nvtx_startend_sum"}, "column");
  options.time_unit = "usec";
  REQUIRE(RunStats(report, options).ok());
  CHECK(ReadFile(out + "/r_nvtx_startend_sum.txt") ==
        " Time (%)  Total Time (us)  Instances  Avg (us)  Med (us)  Min (us)  Max (us)  "
        "StdDev (us)    Range\n"
        " --------  ---------------  ---------  --------  --------  --------  --------  "
        "-----------  ---------\n"
        "     97.8             0.45          3      0.15       0.1      0.05       0.3       "
        "0.1323  :transfer\n"
        "      2.2             0.01          1      0.01      0.01      0.01      0.01          "
        "0.0  :outer\n");
}

TEST_CASE("a report without data is skipped - not an error", "[stats][runner]") {
  const std::string report =
      MakeReport("runner_skipped", {"NVTX_EVENTS", "OSRT_API"},
                 "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) "
                 "VALUES (0, 10, 59, 'a', 1);");
  const std::string out = prof::test::MakeTempDir("stats_runner_skipped_out");
  REQUIRE(
      RunStats(report, ToFiles(out + "/r", {"nvtx_startend_sum", "osrt_sum", "nvtx_pushpop_sum"}))
          .ok());
  CHECK(FilesIn(out) == std::vector<std::string>{"r_nvtx_pushpop_sum.csv"});
}

TEST_CASE("an existing output file fails the run before anything is written", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_exists");
  const std::string out = prof::test::MakeTempDir("stats_runner_exists_out");
  std::ofstream(out + "/r_nvtx_pushpop_sum.csv") << "keep";
  const StatsOptions options = ToFiles(out + "/r", {"nvtx_sum", "nvtx_pushpop_sum"});
  CHECK(ErrorOf(report, options) ==
        out + "/r_nvtx_pushpop_sum.csv already exists (use --force-overwrite to replace it)");
  CHECK(FilesIn(out) == std::vector<std::string>{"r_nvtx_pushpop_sum.csv"});
  CHECK(ReadFile(out + "/r_nvtx_pushpop_sum.csv") == "keep");

  StatsOptions forced = options;
  forced.force_overwrite = true;
  REQUIRE(RunStats(report, forced).ok());
  CHECK(FilesIn(out) == std::vector<std::string>{"r_nvtx_pushpop_sum.csv", "r_nvtx_sum.csv"});
  CHECK(ParseCsv(ReadFile(out + "/r_nvtx_pushpop_sum.csv")).size() == 6);
}

TEST_CASE("an unwritable output is an error", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_unwritable");
  const std::string out = prof::test::MakeTempDir("stats_runner_unwritable_out");
  CHECK(ErrorOf(report, ToFiles(out + "/missing/r", {"nvtx_sum"})) ==
        "cannot write " + out + "/missing/r_nvtx_sum.csv: No such file or directory");
  fs::create_directory(out + "/r_nvtx_sum.csv");
  CHECK(ErrorOf(report, ToFiles(out + "/r", {"nvtx_sum"})) ==
        "cannot write " + out + "/r_nvtx_sum.csv: it is a directory");
}

TEST_CASE("files that are not reports are errors", "[stats][runner]") {
  const std::string dir = prof::test::MakeTempDir("stats_runner_inputs");
  const StatsOptions options = ToFiles(dir + "/r", {});
  CHECK(ErrorOf(dir + "/none.sqlite", options) == "report file not found: " + dir + "/none.sqlite");
  std::ofstream(dir + "/text.sqlite") << "not a database, but long enough to have a header\n";
  CHECK(ErrorOf(dir + "/text.sqlite", options) == dir + "/text.sqlite is not an SQLite database");
  {
    storage::Database other;
    REQUIRE(storage::Database::OpenReadWrite(dir + "/other.sqlite", &other).ok());
    REQUIRE(other.Exec("CREATE TABLE notes (body TEXT)").ok());
  }
  CHECK(ErrorOf(dir + "/other.sqlite", options) ==
        dir +
            "/other.sqlite is not a prof or nsys report (it has no META_DATA_EXPORT or "
            "StringIds table)");
  CHECK(FilesIn(dir) == std::vector<std::string>{"other.sqlite", "text.sqlite"});
}

TEST_CASE("unknown reports - formats and units are errors listing the valid ones",
          "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_options");
  StatsOptions options;
  options.reports = {"nvtx_sum", "cuda_sum"};
  CHECK(ErrorOf(report, options) == "unknown report 'cuda_sum'; valid reports: " + ReportNames());
  CHECK(ReportNames().substr(0, 28) == "nvtx_sum, osrt_sum, cuda_api");
  options.reports.clear();
  options.format = "xml";
  CHECK(ErrorOf(report, options) ==
        "unknown format 'xml'; valid formats: column, table, csv, tsv, json");
  options.format.clear();
  options.time_unit = "min";
  CHECK(ErrorOf(report, options) == "unknown time unit 'min'; valid units: nsec, usec, msec, sec");
}

TEST_CASE("report options are checked against the report", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_report_options");
  StatsOptions options;
  options.reports = {"cuda_gpu_kern_sum:demangled"};
  CHECK(ErrorOf(report, options) ==
        "unknown option 'demangled' of report cuda_gpu_kern_sum; valid options: base, mangled");
  options.reports = {"nvtx_sum:base"};
  CHECK(ErrorOf(report, options) == "report nvtx_sum takes no options (got 'base')");
  options.reports = {"cuda_gpu_kern_sum:"};
  CHECK(ErrorOf(report, options) ==
        "unknown option '' of report cuda_gpu_kern_sum; valid options: base, mangled");
  options.reports = {"nvtx_sum:base", "nvtx_sum"};
  CHECK(ErrorOf(report, options) == "report nvtx_sum takes no options (got 'base')");
}

TEST_CASE("the report file is not modified", "[stats][runner]") {
  const std::string report = MakeNvtxReport("runner_readonly");
  const std::string before = ReadFile(report);
  const auto modified = fs::last_write_time(report);
  const std::string out = prof::test::MakeTempDir("stats_runner_readonly_out");
  REQUIRE(RunStats(report, ToFiles(out + "/r", {"nvtx_sum", "nvtx_pushpop_trace"})).ok());
  CHECK(ReadFile(report) == before);
  CHECK(fs::last_write_time(report) == modified);
  CHECK(FilesIn(fs::path(report).parent_path()) ==
        std::vector<std::string>{fs::path(report).filename()});
}

}  // namespace
}  // namespace prof::stats::test
