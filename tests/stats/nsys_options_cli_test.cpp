// `prof stats` with nsys stats's output spellings: -o . and -o @command, comma lists of -f and -o
// paired with the reports, format arguments, --help-reports and --force-export.
#include <catch2/catch.hpp>
#include <filesystem>

#include "stats/report_registry.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

namespace fs = std::filesystem;
using prof::test::CommandResult;

const std::string kDataDir = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix";
const std::string kReport = kDataDir + "/torch_mix.sqlite";

CommandResult Stats(std::vector<std::string> args) {
  args.insert(args.begin(), {prof::test::ProfBinary(), "stats"});
  return prof::test::RunCommand(args);
}

std::string NsysCsv(const std::string& report) {
  return ReadFile(kDataDir + "/nsys_" + report + ".csv");
}

const std::string kPushPopColumn =
    " ** NVTX Push/Pop Range Summary (nvtx_pushpop_sum):\n"
    "\n"
    " Time (%)  Total Time (ns)  Instances     Avg (ns)       Med (ns)      Min (ns)     "
    "Max (ns)   StdDev (ns)   Range\n"
    " --------  ---------------  ---------  -------------  -------------  -----------  "
    "-----------  ------------  ------\n"
    "     58.9      485,565,904          1  485,565,904.0  485,565,904.0  485,565,904  "
    "485,565,904           0.0  :setup\n"
    "     38.3      315,293,159         40    7,882,329.0      775,657.5      719,575  "
    "284,113,981  44,796,144.2  :step\n"
    "      2.5       20,218,166         40      505,454.2      413,289.5      382,077    "
    "3,724,651     527,534.3  :h2d\n"
    "      0.4        3,011,805         40       75,295.1       27,384.5       24,087    "
    "1,932,260     301,153.2  :sync\n";

// A copy of the torch_mix export in a fresh directory, so that files written next to it are
// the test's.
std::string CopyOfReport(const std::string& test_name) {
  const std::string copy = prof::test::MakeTempDir(test_name) + "/rep.sqlite";
  fs::copy_file(kReport, copy);
  return copy;
}

TEST_CASE("stats -o . names the files after the report, next to it", "[stats][cli][nsys]") {
  const std::string report = CopyOfReport("stats_output_dot");
  const std::string dir = fs::path(report).parent_path();
  const CommandResult result = Stats({"-r", "nvtx_sum,osrt_sum", "-o", ".", report});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err ==
        "prof: wrote " + dir + "/rep_nvtx_sum.csv\nprof: wrote " + dir + "/rep_osrt_sum.csv\n");
  CHECK(ReadFile(dir + "/rep_nvtx_sum.csv") == NsysCsv("nvtx_sum"));
  CHECK(ReadFile(dir + "/rep_osrt_sum.csv") == NsysCsv("osrt_sum"));
}

TEST_CASE("stats -o @command pipes each report into the command", "[stats][cli][nsys]") {
  const CommandResult on_stdout = Stats({"-r", "nvtx_sum", "-f", "csv", kReport});
  const CommandResult piped = Stats({"-r", "nvtx_sum", "-o", "@cat", kReport});  // csv default
  CHECK(piped.exit_code == 0);
  CHECK(piped.err.empty());
  CHECK(piped.out == on_stdout.out);
  CHECK(piped.out == NsysCsv("nvtx_sum"));

  // One command per report, each given the report alone; the shell runs the command line.
  const CommandResult two =
      Stats({"-r", "nvtx_sum,osrt_sum", "-f", "csv:nohdr", "-o", "@wc -l", kReport});
  CHECK(two.exit_code == 0);
  CHECK(two.out == "4\n38\n");

  const CommandResult failed = Stats({"-r", "nvtx_sum", "-o", "@exit 3", kReport});
  CHECK(failed.exit_code == 1);
  CHECK(failed.err == "prof: error: the output command 'exit 3' exited with status 3\n");
  const CommandResult early = Stats({"-r", "cuda_api_trace", "-o", "@head -c 10", kReport});
  CHECK(early.exit_code == 0);  // a command that stops reading is not prof's failure
  CHECK(early.out == "Start (ns)");
}

TEST_CASE("stats -f takes one format per report, the last for the rest", "[stats][cli][nsys]") {
  const CommandResult result =
      Stats({"-r", "nvtx_sum,nvtx_pushpop_sum", "-f", "csv,column", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out == NsysCsv("nvtx_sum") + "\n" + kPushPopColumn);

  const CommandResult repeated =
      Stats({"-r", "nvtx_sum", "-r", "nvtx_pushpop_sum", "-f", "csv", "-f", "column", kReport});
  CHECK(repeated.out == result.out);

  const CommandResult last_repeats =
      Stats({"-r", "nvtx_sum,nvtx_pushpop_sum,osrt_sum", "-f", "column,csv", kReport});
  CHECK(last_repeats.exit_code == 0);
  CHECK(last_repeats.out.find("\n" + NsysCsv("nvtx_pushpop_sum") + "\n" + NsysCsv("osrt_sum")) !=
        std::string::npos);
}

TEST_CASE("stats -f csv,column -o .,- writes a file and prints the report", "[stats][cli][nsys]") {
  const std::string report = CopyOfReport("stats_output_pairs");
  const std::string dir = fs::path(report).parent_path();
  const CommandResult result =
      Stats({"-r", "nvtx_pushpop_sum", "-f", "csv,column", "-o", ".,-", report});
  CHECK(result.exit_code == 0);
  CHECK(result.err == "prof: wrote " + dir + "/rep_nvtx_pushpop_sum.csv\n");
  CHECK(ReadFile(dir + "/rep_nvtx_pushpop_sum.csv") == NsysCsv("nvtx_pushpop_sum"));
  CHECK(result.out == kPushPopColumn);
}

TEST_CASE("stats -f csv:nohdr leaves the header out", "[stats][cli][nsys]") {
  const CommandResult result = Stats({"-r", "osrt_sum", "-f", "csv:nohdr", kReport});
  CHECK(result.exit_code == 0);
  const std::string csv = NsysCsv("osrt_sum");
  CHECK(result.out == csv.substr(csv.find('\n') + 1));

  const CommandResult bad = Stats({"-r", "osrt_sum", "-f", "csv:nohdr:fast", kReport});
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err == "prof: error: unknown argument 'fast' of format csv; valid arguments: nohdr\n");
}

TEST_CASE("stats --help-reports lists every report on one line", "[stats][cli][nsys]") {
  const CommandResult result = Stats({"--help-reports"});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  std::string expected = "The following built-in reports are available:\n\n";
  for (const ReportSpec& report : AllReports()) {
    std::string options;
    for (std::string_view option : report.options) {
      options += (options.empty() ? "[:" : "|:") + std::string(option);
    }
    expected += "  " + std::string(report.name) + (options.empty() ? "" : options + "]") + " -- " +
                std::string(report.title) + "\n";
  }
  CHECK(result.out.find(
            "  cpu_sample_sum[:tid=<integer>|:nvtx=<text>|:lines] -- CPU Sample Summary\n") !=
        std::string::npos);
  CHECK(result.out == expected);
  CHECK(result.out.find("  nvtx_sum -- NVTX Range Summary\n") != std::string::npos);

  const CommandResult one = Stats({"--help-reports=osrt_sum"});
  CHECK(one.exit_code == 0);
  CHECK(one.out.rfind("osrt_sum -- OS Runtime Summary\n\nosrt_sum: OS Runtime Summary. One row ",
                      0) == 0);
  CHECK(one.out.find("\nA default report: runs without -r when the file has its data.\n") !=
        std::string::npos);

  const CommandResult all = Stats({"--help-reports", "ALL"});
  CHECK(all.exit_code == 0);
  CHECK(all.out.find("\ncuda_api_py_sum -- ") != std::string::npos);

  const CommandResult none = Stats({"-r", "nvtx_sum"});  // no --help-reports: a report is needed
  CHECK(none.exit_code == 1);
  CHECK(none.err == "prof: error: no report file given (prof stats <report>...)\n");

  const CommandResult unknown = Stats({"--help-reports=gpu"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err == "prof: error: unknown report 'gpu'; valid reports: " + ReportNames() + "\n");
}

TEST_CASE("stats accepts nsys's --force-export and changes nothing", "[stats][cli][nsys]") {
  const CommandResult result =
      Stats({"--force-export=true", "-r", "nvtx_sum", "-f", "csv", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out == NsysCsv("nvtx_sum"));
}

}  // namespace
}  // namespace prof::stats::test
