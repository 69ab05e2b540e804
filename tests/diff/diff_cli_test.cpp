// `prof diff` through the prof executable: exit codes, rows of each format, and errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "storage/sqlite_database.h"
#include "tests/diff/diff_scenarios.h"
#include "tests/diff/report_builder.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::diff::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;
using stats::test::ReadFile;

constexpr int kNoRegression = 0;
constexpr int kRegression = 1;
constexpr int kError = 2;

const std::string kTorchMix = std::string(PROF_DIFF_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite";
const std::string kHeader =
    "Status,Kind,Base Inst,New Inst,Base Total (ns),New Total (ns),Base Med (ns),New Med (ns),"
    "Change (ns),Change (%),Noise (ns),Name\n";

CommandResult Diff(std::vector<std::string> args) {
  args.insert(args.begin(), {ProfBinary(), "diff"});
  return RunCommand(args);
}

// A failed run: exit code 2, nothing on stdout, exactly one "prof: error: ..." line.
void CheckFails(const CommandResult& result, const std::string& message) {
  CHECK(result.exit_code == kError);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: error: " + message + "\n");
}

struct TrainingPair {
  std::string base = MakeTrainingBase("cli_base");
  std::string candidate = MakeTrainingNew("cli_new");
};

TEST_CASE("prof diff fails on a kernel 20% slower and lists new and vanished items",
          "[diff][cli]") {
  const TrainingPair pair;
  // Every change is below the default --min-time, 5 ms; 1% of this 33 µs run is 330 ns.
  CHECK(Diff({pair.base, pair.candidate}).exit_code == kNoRegression);
  const CommandResult result = Diff({"-f", "csv", "--min-time", "0", pair.base, pair.candidate});
  CHECK(result.exit_code == kRegression);
  CHECK(result.err ==
        "prof: 2 regressed, 0 uncounted, 0 noise, 0 improved, 6 unchanged, 2 new, 1 vanished "
        "(threshold 5%, min-time 0 ns, 1% of the 33000 ns run: 330 ns, waits uncounted)\n");
  CHECK(result.out == kHeader +
                          "regressed,gpu_busy,13,16,7900,8800,,,900,11.4,0,device 0\n"
                          "regressed,kernel,4,4,4000,4800,1000.0,1200.0,800,20.0,0,gemm(float*)\n"
                          "unchanged,nvtx,4,4,12000,12400,3000.0,3100.0,400,3.3,0,:step\n"
                          "unchanged,kernel,4,4,2000,2040,500.0,510.0,40,2.0,0,relu(float*)\n"
                          "unchanged,cuda_api,8,8,800,824,100.0,103.0,24,3.0,0,cudaLaunchKernel\n"
                          "unchanged,gpu_span,13,16,32200,32200,,,0,0.0,0,all devices\n"
                          "unchanged,memop,4,4,1600,1600,400.0,400.0,0,0.0,0,"
                          "[CUDA memcpy Host-to-Device]\n"
                          "unchanged,osrt,4,4,400,400,100.0,100.0,0,0.0,0,read\n"
                          "new,kernel,0,4,0,400,,100.0,400,,0,softmax(float*)\n"
                          "new,cuda_api,0,4,0,200,,50.0,200,,0,cudaLaunchKernelExC_v11060\n"
                          "vanished,kernel,1,0,300,0,300.0,,-300,-100.0,0,copy_kernel(float*)\n");
}

TEST_CASE("prof diff passes when the changes are within --threshold or --min-time", "[diff][cli]") {
  const TrainingPair pair;
  const CommandResult loose = Diff({"--threshold=25", "-q", pair.base, pair.candidate});
  CHECK(loose.exit_code == kNoRegression);
  CHECK(loose.err.empty());
  const CommandResult large_only =
      Diff({"--min-time", "900", "-f", "csv", pair.base, pair.candidate});
  CHECK(large_only.exit_code == kNoRegression);
  CHECK(large_only.out.substr(kHeader.size(), 57) ==
        "unchanged,gpu_busy,13,16,7900,8800,,,900,11.4,0,device 0\n");
}

TEST_CASE("prof diff --range compares the median instance of a range", "[diff][cli]") {
  const TrainingPair pair;
  const CommandResult result = Diff({"--range", "step", "--threshold", "3", "--min-time", "0", "-f",
                                     "csv", pair.base, pair.candidate});
  CHECK(result.exit_code == kRegression);
  const auto rows = stats::test::ParseCsv(result.out);
  REQUIRE(rows.size() == 13);
  // 3.3% > 3%: the range and the NVTX total regress too.
  CHECK(rows[3] == std::vector<std::string>{"regressed", "nvtx", "4", "4", "12000", "12400",
                                            "3000.0", "3100.0", "400", "3.3", "0", ":step"});
  CHECK(rows[4] == std::vector<std::string>{"regressed", "range", "4", "4", "12000", "12400",
                                            "3000.0", "3100.0", "100", "3.3", "0", "step"});
}

TEST_CASE("prof diff with several reports a side reports changes inside the spread as noise",
          "[diff][cli]") {
  const std::vector<std::string> base = {
      MakeGemmRun("noisy_b1", 1000), MakeGemmRun("noisy_b2", 1300), MakeGemmRun("noisy_b3", 900)};
  const std::vector<std::string> candidate = {
      MakeGemmRun("noisy_n1", 1200), MakeGemmRun("noisy_n2", 1200), MakeGemmRun("noisy_n3", 1200)};
  const CommandResult noisy = Diff({"-f", "csv", "--min-time", "0", "--base", base[0], base[1],
                                    base[2], "--new", candidate[0], candidate[1], candidate[2]});
  CHECK(noisy.exit_code == kNoRegression);
  CHECK(noisy.out == kHeader +
                         "noise,gpu_busy,4,4,4000,4800,,,800,20.0,1600,device 0\n"
                         "noise,kernel,4,4,4000,4800,1000.0,1200.0,800,20.0,1600,gemm(float*)\n"
                         "unchanged,gpu_span,4,4,31000,31200,,,200,0.6,400,all devices\n");

  const std::vector<std::string> steady = {MakeGemmRun("steady_b1", 1000),
                                           MakeGemmRun("steady_b2", 1010),
                                           MakeGemmRun("steady_b3", 990)};
  const CommandResult regressed =
      Diff({"-f", "csv", "--min-time", "0", "--base", steady[0], steady[1], steady[2], "--new",
            candidate[0], candidate[1], candidate[2]});
  CHECK(regressed.exit_code == kRegression);
  CHECK(regressed.out ==
        kHeader +
            "regressed,gpu_busy,4,4,4000,4800,,,800,20.0,80,device 0\n"
            "regressed,kernel,4,4,4000,4800,1000.0,1200.0,800,20.0,80,gemm(float*)\n"
            "unchanged,gpu_span,4,4,31000,31200,,,200,0.6,20,all devices\n");
}

TEST_CASE("prof diff compares reports without CUDA data", "[diff][cli]") {
  // The 80 ns change is below 1% of the 32000 ns run.
  const std::string base = MakeHostOnly("host_base", 100);
  const std::string candidate = MakeHostOnly("host_new", 120);
  CHECK(Diff({"--min-time", "0", base, candidate}).exit_code == kNoRegression);
  const CommandResult result =
      Diff({"-f", "csv", "--min-time", "0", "--min-share", "0", base, candidate});
  CHECK(result.exit_code == kRegression);
  CHECK(result.out == kHeader +
                          "regressed,osrt,4,4,400,480,100.0,120.0,80,20.0,0,read\n"
                          "unchanged,nvtx,4,4,8000,8000,2000.0,2000.0,0,0.0,0,Lib:load\n");
}

TEST_CASE("prof diff writes json with stable keys and markdown for comments", "[diff][cli]") {
  const std::string base = MakeHostOnly("formats_base", 100);
  const std::string candidate = MakeHostOnly("formats_new", 120);
  const CommandResult json =
      Diff({"-f", "json", "--timeunit", "usec", "--min-time=0", "--min-share=0", base, candidate});
  CHECK(json.exit_code == kRegression);
  CHECK(json.out ==
        "[\n"
        "  {\"status\": \"regressed\", \"kind\": \"osrt\", \"name\": \"read\", \"compared\": "
        "\"total\", \"base_instances\": 4, \"new_instances\": 4, \"base_total_ns\": 400, "
        "\"new_total_ns\": 480, \"base_median_ns\": 100.0, \"new_median_ns\": 120.0, "
        "\"change_ns\": 80, \"change_pct\": 20.0, \"noise_ns\": 0},\n"
        "  {\"status\": \"unchanged\", \"kind\": \"nvtx\", \"name\": \"Lib:load\", \"compared\": "
        "\"total\", \"base_instances\": 4, \"new_instances\": 4, \"base_total_ns\": 8000, "
        "\"new_total_ns\": 8000, \"base_median_ns\": 2000.0, \"new_median_ns\": 2000.0, "
        "\"change_ns\": 0, \"change_pct\": 0.0, \"noise_ns\": 0}\n"
        "]\n");
  const CommandResult markdown =
      Diff({"-f", "markdown", "-q", "--min-time=0", "--min-share=0", base, candidate});
  CHECK(markdown.exit_code == kRegression);
  CHECK(markdown.out ==
        "**prof diff:** 1 regressed, 0 uncounted, 0 noise, 0 improved, 1 unchanged, 0 new, "
        "0 vanished (threshold 5%, min-time 0 ns, 0% of the 32000 ns run: 0 ns, waits uncounted)\n"
        "\n"
        "| Status | Kind | Base Inst | New Inst | Base Total (ns) | New Total (ns) | Base Med (ns) "
        "| New Med (ns) | Change (ns) | Change (%) | Noise (ns) | Name |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
        "| regressed | osrt | 4 | 4 | 400 | 480 | 100.0 | 120.0 | 80 | 20.0 | 0 | read |\n"
        "| unchanged | nvtx | 4 | 4 | 8,000 | 8,000 | 2,000.0 | 2,000.0 | 0 | 0.0 | 0 | Lib:load "
        "|\n");
}

TEST_CASE("prof diff lists a grown wait and a range grown by it as uncounted unless --count-waits",
          "[diff][cli]") {
  // pthread_cond_wait inside each :step takes 3x as long; the rest of the steps does not change.
  const std::string base = MakeWaitingRun("waits_base", 1000);
  const std::string candidate = MakeWaitingRun("waits_new", 3000);
  const CommandResult uncounted = Diff({"-f", "csv", "--min-time", "0", base, candidate});
  CHECK(uncounted.exit_code == kNoRegression);
  CHECK(uncounted.err ==
        "prof: 0 regressed, 2 uncounted, 0 noise, 0 improved, 0 unchanged, 0 new, 0 vanished "
        "(threshold 5%, min-time 0 ns, 1% of the 33000 ns run: 330 ns, waits uncounted)\n");
  CHECK(uncounted.out == kHeader +
                             "uncounted,nvtx,4,4,12000,20000,3000.0,5000.0,8000,66.7,0,:step\n"
                             "uncounted,osrt,4,4,4000,12000,1000.0,3000.0,8000,200.0,0,"
                             "pthread_cond_wait\n");
  const CommandResult counted =
      Diff({"-f", "csv", "--min-time", "0", "--count-waits", base, candidate});
  CHECK(counted.exit_code == kRegression);
  CHECK(counted.err ==
        "prof: 2 regressed, 0 uncounted, 0 noise, 0 improved, 0 unchanged, 0 new, 0 vanished "
        "(threshold 5%, min-time 0 ns, 1% of the 33000 ns run: 330 ns, waits counted)\n");
  CHECK(counted.out.substr(kHeader.size(), 10) == "regressed,");
}

TEST_CASE("prof diff of torch_mix against itself changes nothing", "[diff][cli]") {
  const CommandResult result = Diff({"-f", "csv", "--range", "step", kTorchMix, kTorchMix});
  CHECK(result.exit_code == kNoRegression);
  CHECK(result.err ==
        "prof: 0 regressed, 0 uncounted, 0 noise, 0 improved, 83 unchanged, 0 new, 0 vanished "
        "(threshold 5%, min-time 5000000 ns, 1% of the 6091462657 ns run: 60914627 ns, waits "
        "uncounted)\n");
  const auto rows = stats::test::ParseCsv(result.out);
  REQUIRE(rows.size() == 84);
  int kernels = 0;
  for (size_t row = 1; row < rows.size(); ++row) {
    CHECK(rows[row][0] == "unchanged");
    CHECK(rows[row][8] == "0");
    CHECK(rows[row][2] == rows[row][3]);
    if (rows[row][1] == "kernel") kernels += std::stoi(rows[row][2]);
  }
  CHECK(kernels == 321);
  CHECK(rows[1] == std::vector<std::string>{"unchanged", "gpu_busy", "522", "522", "18537339",
                                            "18537339", "", "", "0", "0.0", "0", "device 0"});
  // nvtx_sum's :step row: 40 ranges, 315,293,159 ns, median 775,657.5 ns.
  CHECK(rows[3] == std::vector<std::string>{"unchanged", "range", "40", "40", "315293159",
                                            "315293159", "775657.5", "775657.5", "0", "0.0", "0",
                                            "step"});
}

TEST_CASE("prof diff -o writes a file and refuses to replace one", "[diff][cli]") {
  const std::string dir = prof::test::MakeTempDir("diff_output");
  const std::string base = MakeHostOnly("output_base", 100);
  const CommandResult written = Diff({"-f", "csv", "-q", "-o", dir + "/diff.csv", base, base});
  CHECK(written.exit_code == kNoRegression);
  CHECK(written.out.empty());
  CHECK(ReadFile(dir + "/diff.csv") == kHeader +
                                           "unchanged,nvtx,4,4,8000,8000,2000.0,2000.0,0,0.0,0,"
                                           "Lib:load\n"
                                           "unchanged,osrt,4,4,400,400,100.0,100.0,0,0.0,0,read\n");
  CheckFails(Diff({"-o", dir + "/diff.csv", base, base}),
             dir + "/diff.csv already exists (use --force-overwrite to replace it)");
  CHECK(Diff({"--force-overwrite", "-o", dir + "/diff.csv", base, base}).exit_code ==
        kNoRegression);
  // Not even --force-overwrite replaces a report being compared.
  const std::string other = MakeHostOnly("output_other", 100);
  CheckFails(Diff({"--force-overwrite", "-o", other, base, other}),
             "the output " + other + " is one of the reports read (choose another with -o)");
  CHECK(Diff({base, other}).exit_code == kNoRegression);  // still a report
}

TEST_CASE("prof diff fails with exit code 2 and one line on bad input", "[diff][cli]") {
  const std::string dir = prof::test::MakeTempDir("diff_errors");
  const std::string report = MakeHostOnly("errors_report", 100);
  std::ofstream(dir + "/notes.txt") << "not a database\n";

  CheckFails(Diff({report, dir + "/missing.sqlite"}),
             "report file not found: " + dir + "/missing.sqlite");
  CheckFails(Diff({dir + "/notes.txt", report}), dir + "/notes.txt is not an SQLite database");
  const std::string other = dir + "/other.sqlite";
  {
    storage::Database db;
    REQUIRE(storage::Database::OpenReadWrite(other, &db).ok());
    REQUIRE(db.Exec("CREATE TABLE results (x INTEGER)").ok());
  }
  CheckFails(
      Diff({report, other}),
      other + " is not a prof or nsys report (it has no META_DATA_EXPORT or StringIds table)");
  const std::string empty = ReportBuilder().Write("errors_empty");
  CheckFails(Diff({empty, empty}),
             "nothing to compare: the reports have no CUDA, NVTX or OS runtime data");
  CheckFails(Diff({report}), "expected two reports, BASE and NEW (or --base ... --new ...), got 1");
  CheckFails(Diff({"--base", report, report}),
             "--base and --new go together: both need at least one report");
  CheckFails(Diff({"--base", report, "--new", report, "--", report}),
             "give the reports either as BASE NEW or with --base and --new, not both");
  CheckFails(Diff({"--bogus", report, report}),
             "unknown option --bogus for prof diff; see prof diff --help");
  CheckFails(Diff({"--threshold", "lots", report, report}),
             "invalid value 'lots' for --threshold; see prof diff --help");
  CheckFails(Diff({"--threshold", "-1", report, report}),
             "--threshold must be a percentage of 0 or more");
  CheckFails(Diff({"--min-time", "5ms", report, report}),
             "invalid value '5ms' for --min-time; see prof diff --help");
  CheckFails(Diff({"--min-time", "-1", report, report}), "--min-time must be 0 ns or more");
  CheckFails(Diff({"--min-share", "-1", report, report}),
             "--min-share must be a percentage of 0 or more");
  CheckFails(Diff({"-f", "xml", report, report}),
             "unknown format 'xml'; valid: column, table, csv, tsv, json, markdown");
  CheckFails(Diff({"--kernel-key", "grid", report, report}),
             "unknown --kernel-key 'grid'; valid: name, name+grid+block");
  CheckFails(Diff({"--range", "train_step", report, report}),
             "no report has an NVTX range named 'train_step'");
  CheckFails(Diff({"-o", dir + "/out.txt", report, dir + "/missing.sqlite"}),
             "report file not found: " + dir + "/missing.sqlite");
  CHECK_FALSE(std::filesystem::exists(dir + "/out.txt"));
}

}  // namespace
}  // namespace prof::diff::test
