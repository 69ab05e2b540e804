// `prof stats` through the prof executable: console output, SKIPPED notes, options and errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "stats/report_registry.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;

const std::string kDataDir = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix";
const std::string kReport = kDataDir + "/torch_mix.sqlite";

CommandResult Stats(std::vector<std::string> args) {
  args.insert(args.begin(), {ProfBinary(), "stats"});
  return RunCommand(args);
}

// A failed run: exit code 1, nothing on stdout, exactly one "prof: error: ..." line.
void CheckFails(const CommandResult& result, const std::string& message) {
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: error: " + message + "\n");
}

TEST_CASE("prof stats prints nsys-style column reports", "[stats][cli]") {
  const CommandResult result = Stats({"-r", "nvtx_sum", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out ==
        " ** NVTX Range Summary (nvtx_sum):\n"
        "\n"
        " Time (%)  Total Time (ns)  Instances     Avg (ns)       Med (ns)      Min (ns)     "
        "Max (ns)   StdDev (ns)    Style   Range\n"
        " --------  ---------------  ---------  -------------  -------------  -----------  "
        "-----------  ------------  -------  ------\n"
        "     58.9      485,565,904          1  485,565,904.0  485,565,904.0  485,565,904  "
        "485,565,904           0.0  PushPop  :setup\n"
        "     38.3      315,293,159         40    7,882,329.0      775,657.5      719,575  "
        "284,113,981  44,796,144.2  PushPop  :step\n"
        "      2.5       20,218,166         40      505,454.2      413,289.5      382,077    "
        "3,724,651     527,534.3  PushPop  :h2d\n"
        "      0.4        3,011,805         40       75,295.1       27,384.5       24,087    "
        "1,932,260     301,153.2  PushPop  :sync\n");
}

TEST_CASE("prof stats -f csv on stdout is nsys's csv", "[stats][cli]") {
  const CommandResult result = Stats({"--format", "csv", "--report", "osrt_sum", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out == ReadFile(kDataDir + "/nsys_osrt_sum.csv"));
}

TEST_CASE("prof stats runs the default reports a blank line apart", "[stats][cli]") {
  const CommandResult result = Stats({"-f", "csv", kReport});
  CHECK(result.exit_code == 0);
  std::string expected;
  for (const char* report : {"nvtx_sum", "osrt_sum", "cuda_api_sum", "cuda_gpu_kern_sum",
                             "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum"}) {
    expected += (expected.empty() ? "" : "\n") + ReadFile(kDataDir + "/nsys_" + report + ".csv");
  }
  CHECK(result.out == expected);
}

TEST_CASE("prof stats takes -r as a comma list or repeated", "[stats][cli]") {
  const CommandResult listed = Stats({"-f", "csv", "-r", "nvtx_pushpop_sum,nvtx_sum", kReport});
  const CommandResult repeated =
      Stats({"-f", "csv", "-r", "nvtx_pushpop_sum", "-r", "nvtx_sum", kReport});
  CHECK(listed.exit_code == 0);
  CHECK(listed.out == ReadFile(kDataDir + "/nsys_nvtx_pushpop_sum.csv") + "\n" +
                          ReadFile(kDataDir + "/nsys_nvtx_sum.csv"));
  CHECK(repeated.out == listed.out);
}

TEST_CASE("prof stats --timeunit renames and scales time columns", "[stats][cli]") {
  const CommandResult result =
      Stats({"-f", "csv", "-r", "nvtx_pushpop_sum", "--timeunit", "msec", kReport});
  CHECK(result.exit_code == 0);
  const TextRows rows = ParseCsv(result.out);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == std::vector<std::string>{"Time (%)", "Total Time (ms)", "Instances", "Avg (ms)",
                                            "Med (ms)", "Min (ms)", "Max (ms)", "StdDev (ms)",
                                            "Range"});
  CHECK(rows[2] == std::vector<std::string>{"38.3", "315.293159", "40", "7.882329", "0.7756575",
                                            "0.719575", "284.113981", "44.7961442", ":step"});
}

TEST_CASE("prof stats notes a report without CPU samples on stderr", "[stats][cli]") {
  for (const char* report : {"cpu_sample_sum", "cpu_sample_tree:cutoff=5"}) {
    const CommandResult result = Stats({"-r", report, kReport});
    CHECK(result.exit_code == 0);
    CHECK(result.out.empty());
    CHECK(result.err == "prof: SKIPPED: " + kReport + " does not contain CPU sample data.\n");
  }
}

TEST_CASE("prof stats notes a report without data on stderr", "[stats][cli]") {
  const CommandResult result = Stats({"-r", "nvtx_startend_sum", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err ==
        "prof: SKIPPED: " + kReport + " does not contain NV Tools Extension (NVTX) data.\n");
  const CommandResult quiet = Stats({"-q", "-r", "nvtx_startend_sum", kReport});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("prof stats -o writes one file per report", "[stats][cli]") {
  const std::string dir = prof::test::MakeTempDir("stats_cli_output");
  const CommandResult result = Stats({"-o", dir + "/run", "-r", "nvtx_sum,osrt_sum", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err ==
        "prof: wrote " + dir + "/run_nvtx_sum.csv\nprof: wrote " + dir + "/run_osrt_sum.csv\n");
  CHECK(ReadFile(dir + "/run_nvtx_sum.csv") == ReadFile(kDataDir + "/nsys_nvtx_sum.csv"));

  CheckFails(Stats({"-o", dir + "/run", "-r", "osrt_sum", kReport}),
             dir + "/run_osrt_sum.csv already exists (use --force-overwrite to replace it)");
  CheckFails(Stats({"--force-overwrite=false", "-o", dir + "/run", "-r", "osrt_sum", kReport}),
             dir + "/run_osrt_sum.csv already exists (use --force-overwrite to replace it)");
  std::ofstream(dir + "/run_osrt_sum.csv") << "old";
  const CommandResult forced =
      Stats({"-q", "--force-overwrite", "-o", dir + "/run", "-r", "osrt_sum", kReport});
  CHECK(forced.exit_code == 0);
  CHECK(forced.err.empty());
  CHECK(ReadFile(dir + "/run_osrt_sum.csv") == ReadFile(kDataDir + "/nsys_osrt_sum.csv"));
}

TEST_CASE("prof stats fails with one line on bad input", "[stats][cli]") {
  const std::string dir = prof::test::MakeTempDir("stats_cli_errors");
  CheckFails(Stats({dir + "/missing.sqlite"}), "report file not found: " + dir + "/missing.sqlite");
  std::ofstream(dir + "/notes.txt") << "these are notes, not an SQLite database at all\n";
  CheckFails(Stats({dir + "/notes.txt"}), dir + "/notes.txt is not an SQLite database");
  const std::string other = MakeReport("stats_cli_other", {},
                                       "DROP TABLE META_DATA_EXPORT;"
                                       "DROP TABLE StringIds;"
                                       "CREATE TABLE t (x);");
  CheckFails(Stats({other}), other +
                                 " is not a prof or nsys report (it has no META_DATA_EXPORT "
                                 "or StringIds table)");
  CheckFails(Stats({"-r", "gpu_sum", kReport}),
             "unknown report 'gpu_sum'; valid reports: " + prof::stats::ReportNames());
  // Every positional is a report (several run together), so a stray word is a missing file.
  CheckFails(Stats({"-r", "nvtx_sum", kReport, "extra"}), "report file not found: extra");
  CheckFails(Stats({"--force-overwrite", "true", kReport}), "report file not found: true");
  CheckFails(Stats({"-o", dir + "/no/such/dir/x", kReport}),
             "cannot write " + dir + "/no/such/dir/x_nvtx_sum.csv: No such file or directory");
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files.push_back(entry.path().filename());
  }
  CHECK(files == std::vector<std::string>{"notes.txt"});  // no output was written
}

}  // namespace
}  // namespace prof::stats::test
