// `prof analyze` through the prof executable: console layout, notes, files, and errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "storage/sqlite_database.h"
#include "tests/analyze/cpu_in_gaps_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::analyze::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;
using stats::test::ReadFile;

const std::string kReport = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite";
const std::string kExpectedDir = PROF_ANALYZE_TEST_DATA;

CommandResult Analyze(std::vector<std::string> args) {
  args.insert(args.begin(), {ProfBinary(), "analyze"});
  return RunCommand(args);
}

// A failed run: exit code 1, nothing on stdout, exactly one "prof: error: ..." line.
void CheckFails(const CommandResult& result, const std::string& message) {
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: error: " + message + "\n");
}

TEST_CASE("prof analyze prints the title and the advice and the rows", "[analyze][cli]") {
  const CommandResult result = Analyze({"-r", "gpu_time_util", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.rfind(" ** GPU Time Utilization (gpu_time_util):\n\nIn these time regions a GPU"
                         " was busy less than 50% of the time on average:\n",
                         0) == 0);
  CHECK(result.out.find("\n Row#  In-Use (%)  Duration (ns)    Start (ns)   PID  Device ID  "
                        "Context ID\n"
                        " ----  ----------  -------------  -------------  ---  ---------  "
                        "----------\n"
                        "    1         1.7    329,210,252  5,235,900,071  490          0         "
                        "  1\n") != std::string::npos);
}

TEST_CASE("prof analyze without a rule prints the summary of the steady state", "[analyze][cli]") {
  const CommandResult result = Analyze({kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.rfind(" ** Findings, by Recoverable Time (summary):\n\nSteady state: NVTX ranges"
                         " :step 2 to 40 of 40 (5555624016 ns to 5586847722 ns); the first 1"
                         " skipped as warm-up (warmup=0 keeps them, step= picks the range).\n\n",
                         0) == 0);
  // Rank 1: the pageable copies of every step.
  CHECK(
      result.out.find("\n    1         4,355,904      111,689.8        14.1  The GPU was idle 4.356"
                      " ms in 38 gaps while the host waited in cudaMemcpyAsync in :h2d: 39"
                      " copies were synchronous or used pageable memory (12.586 ms blocked).") !=
      std::string::npos);
}

TEST_CASE("a rule that finds nothing says so under its title", "[analyze][cli]") {
  const CommandResult result = Analyze({"-r", "gpu_gaps:gap=200", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out ==
        " ** GPU Gaps (gpu_gaps:gap=200):\n\nNo GPU was idle for more than 200 ms.\n");
}

TEST_CASE("rows= cutting the rows short is said below them", "[analyze][cli]") {
  const CommandResult result = Analyze({"-r", "cuda_api_sync:rows=2", kReport});
  CHECK(result.exit_code == 0);
  const std::string tail =
      "cudaStreamSynchronize_v3020\n\nOnly the first 2 rows are shown; more "
      "may exist (rows=-1 shows all).\n";
  REQUIRE(result.out.size() > tail.size());
  CHECK(result.out.substr(result.out.size() - tail.size()) == tail);
}

TEST_CASE("prof analyze -f csv on stdout is nsys's csv", "[analyze][cli]") {
  const CommandResult result = Analyze({"-f", "csv", "--rule", "cuda_memcpy_async", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out == ReadFile(kExpectedDir + "/analyze_cuda_memcpy_async.csv"));
  // Without rows nothing goes to stdout; the sentence becomes a note.
  const CommandResult empty = Analyze({"-f", "csv", "-r", "gpu_gaps", kReport});
  CHECK(empty.exit_code == 0);
  CHECK(empty.out.empty());
  CHECK(empty.err == "prof: gpu_gaps: No GPU was idle for more than 500 ms.\n");
}

TEST_CASE("prof analyze -r cpu_in_gaps -f csv lists the threads of each gap", "[analyze][cli]") {
  const CommandResult result =
      Analyze({"-f", "csv", "-r", "cpu_in_gaps:gap=1", CpuInGapsReport("analyze_cli_cpu")});
  CHECK(result.exit_code == 0);
  CHECK(result.out ==
        "Gap,Gap Start (ns),Gap Duration (ns),PID,TID,Thread,Samples,Running (ns),Blocked (ns),"
        "Preempted (ns),Top Functions,Blocked In\n"
        "1,2000,10000,100,100,MainThread,10,9500,0,500,7 collate (/w/train.py:42); 3 memcpy,\n"
        "1,2000,10000,100,101,worker,0,2000,8000,0,,8000 read ← _worker_loop ← <module>\n"
        "2,13000,8000,100,100,MainThread,0,0,8000,0,,7950 sem_wait ← Queue.get ← train ← "
        "<module>\n");
  const std::string no_samples = stats::test::MakeReport("analyze_cli_cpu_skip", {}, "");
  const CommandResult skipped = Analyze({"-r", "cpu_in_gaps", no_samples});
  CHECK(skipped.exit_code == 0);
  CHECK(skipped.out.empty());
  CHECK(skipped.err == "prof: SKIPPED: " + no_samples +
                           " could not be analyzed because it does not contain CPU sample data. "
                           "Was it profiled with --sample=process-tree?\n");
}

TEST_CASE("the timeunit option converts the time columns", "[analyze][cli]") {
  const CommandResult result =
      Analyze({"-f", "csv", "--timeunit", "msec", "-r", "gpu_time_util", kReport});
  CHECK(result.out ==
        "Row#,In-Use (%),Duration (ms),Start (ms),PID,Device ID,Context ID\n"
        "1,1.7,329.210252,5235.900071,490,0,1\n");
}

TEST_CASE("prof analyze -o writes one file per rule with rows", "[analyze][cli]") {
  const std::string dir = prof::test::MakeTempDir("analyze_cli_files");
  const CommandResult result =
      Analyze({"-r", "cuda_api_sync,gpu_gaps", "-r", "gpu_time_util", "-o", dir + "/out", kReport});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: wrote " + dir + "/out_cuda_api_sync.csv\n" +
                          "prof: gpu_gaps: No GPU was idle for more than 500 ms.\n" +
                          "prof: wrote " + dir + "/out_gpu_time_util.csv\n");
  CHECK(ReadFile(dir + "/out_cuda_api_sync.csv") ==
        ReadFile(kExpectedDir + "/analyze_cuda_api_sync.csv"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out_gpu_gaps.csv"));

  // Again: the first file exists, so the run fails before writing anything.
  std::filesystem::remove(dir + "/out_gpu_time_util.csv");
  const CommandResult again =
      Analyze({"-r", "gpu_time_util,cuda_api_sync", "-o", dir + "/out", kReport});
  CheckFails(again,
             dir + "/out_cuda_api_sync.csv already exists (use --force-overwrite to replace it)");
  CHECK_FALSE(std::filesystem::exists(dir + "/out_gpu_time_util.csv"));
  const CommandResult forced = Analyze(
      {"-q", "--force-overwrite", "-r", "cuda_api_sync:rows=1", "-o", dir + "/out", kReport});
  CHECK(forced.exit_code == 0);
  CHECK(forced.err.empty());
  CHECK(ReadFile(dir + "/out_cuda_api_sync_rows-1.csv") ==
        "Duration (ns),Start (ns),PID,TID,API Name\n"
        "33237,5569509580,490,490,cudaStreamSynchronize_v3020\n");
}

TEST_CASE("rules without their tables are SKIPPED with a note", "[analyze][cli]") {
  const std::string report = stats::test::MakeReport("analyze_cli_skip", {}, "");
  const CommandResult result = Analyze({"-r", "cuda_api_sync,gpu_gaps", report});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: SKIPPED: " + report +
                          " could not be analyzed because it does not contain CUDA API calls. "
                          "Does the application call the CUDA runtime?\n"
                          "prof: SKIPPED: " +
                          report +
                          " could not be analyzed because it does not contain GPU operations. "
                          "Does the application launch kernels, copies or sets?\n");
  CHECK(Analyze({"-q", "-r", "gpu_gaps", report}).err.empty());
}

TEST_CASE("bad input is one error line and exit status 1", "[analyze][cli]") {
  const std::string dir = prof::test::MakeTempDir("analyze_cli_errors");
  CheckFails(Analyze({dir + "/missing.sqlite"}),
             "report file not found: " + dir + "/missing.sqlite");
  const std::string text_file = dir + "/notes.sqlite";
  std::ofstream(text_file) << "not a database, just text long enough to be read as a header\n";
  CheckFails(Analyze({text_file}), text_file + " is not an SQLite database");
  const std::string other_db = dir + "/other.sqlite";
  {
    storage::Database db;
    REQUIRE(storage::Database::OpenReadWrite(other_db, &db).ok());
    REQUIRE(db.Exec("CREATE TABLE t (x INTEGER)").ok());
  }
  CheckFails(Analyze({other_db}), other_db +
                                      " is not a prof or nsys report (it has no META_DATA_EXPORT"
                                      " or StringIds table)");
  CheckFails(Analyze({"-r", "gpu_gaps:gap=soon", kReport}),
             "option gap of rule gpu_gaps takes an integer (got 'soon')");
  CheckFails(Analyze({"-r", "nope", kReport}),
             "unknown rule 'nope'; valid rules: cuda_memcpy_async, cuda_memcpy_sync, "
             "cuda_memset_sync, cuda_api_sync, gpu_gaps, gpu_time_util, summary, overlap, "
             "sync_hotspots, idle_class, gap_cause, gap_cause_sum, cpu_in_gaps, nccl_overlap, "
             "nccl_skew, gpu_underuse");
  CheckFails(Analyze({"--bogus", kReport}),
             "unknown option --bogus for prof analyze; see prof analyze --help");
  CheckFails(Analyze({"-f", "xml", kReport}),
             "unknown format 'xml'; valid formats: column, table, csv, tsv, json");
  CheckFails(Analyze({"--timeunit", "min", kReport}),
             "unknown time unit 'min'; valid units: nsec, usec, msec, sec");
}

}  // namespace
}  // namespace prof::analyze::test
