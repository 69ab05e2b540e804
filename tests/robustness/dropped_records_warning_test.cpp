// prof stats warns on one stderr line per kind of loss when the capture lost records, and one per
// other non-zero problem counter of PROF_STATS, and only then.
#include <catch2/catch.hpp>

#include "tests/robustness/hostile_reports.h"
#include "tests/support/test_support.h"

namespace prof::robustness::test {
namespace {

using prof::test::CommandResult;
using prof::test::RunCommand;

// The valid report with a PROF_SESSION table as prof writes it, dropped_records set to `value`
// and torn_records to `torn`.
std::string ReportWithDropped(const std::string& name, const std::string& value,
                              const std::string& torn = "'0'") {
  const std::string path = WriteValidReport("dropped_" + name);
  ExecSql(path,
          "CREATE TABLE PROF_SESSION (name TEXT NOT NULL, value TEXT);"
          "INSERT INTO PROF_SESSION VALUES ('prof_version', '0.1.0'), ('dropped_records', " +
              value + "), ('torn_records', " + torn + ");");
  return path;
}

CommandResult Stats(const std::string& path) {
  return RunCommand({prof::test::ProfBinary(), "stats", "-r", "nvtx_sum", "-f", "csv", path});
}

}  // namespace

TEST_CASE("prof stats warns before the reports when records were dropped", "[robustness]") {
  const std::string path = ReportWithDropped("some", "'42'");
  const CommandResult result = Stats(path);
  CHECK(result.exit_code == 0);
  CHECK(result.err == "prof: warning: " + path +
                          " lost 42 records while profiling (prof could not keep up); the reports "
                          "below miss them\n");
  CHECK(result.out == Stats(ReportWithDropped("none_for_comparison", "'0'")).out);
}

TEST_CASE("prof stats warns about records cut by a process's death on a line of their own",
          "[robustness]") {
  const std::string path = ReportWithDropped("torn", "'42'", "'3'");
  const CommandResult result = Stats(path);
  CHECK(result.exit_code == 0);
  CHECK(result.err == "prof: warning: " + path +
                          " lost 42 records while profiling (prof could not keep up); the reports "
                          "below miss them\nprof: warning: " +
                          path +
                          " lost 3 records that a process was writing when it died; the reports "
                          "below miss them\n");
}

TEST_CASE("prof stats does not warn on zero or unreadable drop counts", "[robustness]") {
  for (const char* value : {"'0'", "'lots'", "'12 apples'", "NULL", "''", "x'3432'"}) {
    const CommandResult result = Stats(ReportWithDropped("quiet", value));
    INFO("dropped_records = " << value);
    CHECK(result.exit_code == 0);
    CHECK(result.err.empty());
  }
}

TEST_CASE("prof stats prints every non-zero problem counter of PROF_STATS but the informative ones",
          "[robustness]") {
  const std::string path = ReportWithDropped("stats", "'5'");
  // As prof writes them (collector/data_problems.h): every counter, zeros included.
  ExecSql(path,
          "CREATE TABLE PROF_STATS (name TEXT NOT NULL, severity TEXT NOT NULL, value INTEGER NOT "
          "NULL, description TEXT NOT NULL);"
          "INSERT INTO PROF_STATS VALUES "
          "('dropped_records', 'data_loss', 5, 'records were dropped'),"
          "('cuda_dropped_records', 'data_loss', 7, 'GPU activity records were dropped by CUPTI'),"
          "('unknown_records', 'error', 0, 'records of kinds this prof does not know'),"
          "('nvtx_unmatched_range_ends', 'error', 2, 'NVTX range ends matched no range start'),"
          "('nvtx_unclosed_ranges', 'info', 9, 'NVTX ranges were still open');");
  const CommandResult result = Stats(path);
  CHECK(result.exit_code == 0);
  CHECK(result.err ==
        "prof: warning: " + path +
            " lost 5 records while profiling (prof could not keep up); the reports "
            "below miss them\nprof: warning: " +
            path +
            ": 7 GPU activity records were dropped by CUPTI (cuda_dropped_records)\n"
            "prof: warning: " +
            path + ": 2 NVTX range ends matched no range start (nvtx_unmatched_range_ends)\n");
}

}  // namespace prof::robustness::test
