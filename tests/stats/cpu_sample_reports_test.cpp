// cpu_sample_sum and cpu_sample_tree on a report with CPU samples written through ReportWriter
// (cpu_sample_fixture.h): self and total samples per function and process (recursion counted once
// per sample), the call tree, the tid/nvtx/cutoff options, and reports without samples.
#include <catch2/catch.hpp>

#include "stats/report_database.h"
#include "stats/report_query.h"
#include "stats/report_registry.h"
#include "stats/report_selection.h"
#include "tests/stats/cpu_sample_fixture.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

TextRows RunWithOptions(const std::string& path, const std::string& report,
                        const std::vector<std::string>& options) {
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  ResultTable table;
  const Status status = RunReportQuery(&db, *FindReport(report), options, &table);
  INFO(status.message());
  REQUIRE(status.ok());
  TextRows rows = {table.columns};
  for (auto& row : Texts(table)) rows.push_back(row);
  return rows;
}

const std::vector<std::string> kSumColumns = {"Self (%)",      "Self Samples", "Total (%)",
                                              "Total Samples", "PID",          "Process",
                                              "Function",      "Module"};
const std::vector<std::string> kTreeColumns = {"Samples (%)", "Samples",  "Self Samples", "PID",
                                               "Process",     "Function", "Module"};

TEST_CASE("cpu_sample_sum counts self and total samples per process and function",
          "[stats][cpu_samples]") {
  const std::string report = MakeCpuSampleReport("sum");
  CHECK(RunWithOptions(report, "cpu_sample_sum", {}) ==
        TextRows{
            kSumColumns,
            {"50.0", "7", "50.0", "7", "1234", "python", "matmul", "/usr/lib/libtorch.so"},
            {"28.6", "4", "28.6", "4", "1234", "python", "fib", "/w/libfib.so"},
            {"21.4", "3", "21.4", "3", "1234", "python", "0x7f0000001234", "/usr/lib/libcuda.so.1"},
            {"60.0", "3", "60.0", "3", "2000", "trainer", "compute", "/usr/bin/trainer"},
            {"40.0", "2", "100.0", "5", "2000", "trainer", "main", "/usr/bin/trainer"},
            {"0.0", "0", "71.4", "10", "1234", "python", "Trainer.train", "/w/train.py"},
            {"0.0", "0", "71.4", "10", "1234", "python", "main", "/usr/bin/python3.12"},
            {"0.0", "0", "50.0", "7", "1234", "python", "Trainer.step", "/w/train.py"},
            {"0.0", "0", "28.6", "4", "1234", "python", "start_thread", "/usr/lib/libc.so.6"},
            {"0.0", "0", "21.4", "3", "1234", "python", "load_batch", "/w/data.py"}});
}

TEST_CASE("cpu_sample_sum with lines has a row per Python function and line",
          "[stats][cpu_samples]") {
  // Trainer.train runs line 10 in the 7 samples under Trainer.step, line 12 in the 3 under
  // load_batch; native frames keep one row each.
  const std::string report = MakeCpuSampleReport("sum_lines");
  CHECK(RunWithOptions(report, "cpu_sample_sum", {"tid=1234", "lines"}) ==
        TextRows{
            kSumColumns,
            {"70.0", "7", "70.0", "7", "1234", "python", "matmul", "/usr/lib/libtorch.so"},
            {"30.0", "3", "30.0", "3", "1234", "python", "0x7f0000001234", "/usr/lib/libcuda.so.1"},
            {"0.0", "0", "100.0", "10", "1234", "python", "main", "/usr/bin/python3.12"},
            {"0.0", "0", "70.0", "7", "1234", "python", "Trainer.step:20", "/w/train.py"},
            {"0.0", "0", "70.0", "7", "1234", "python", "Trainer.train:10", "/w/train.py"},
            {"0.0", "0", "30.0", "3", "1234", "python", "Trainer.train:12", "/w/train.py"},
            {"0.0", "0", "30.0", "3", "1234", "python", "load_batch:5", "/w/data.py"}});
}

TEST_CASE("cpu_sample_sum keeps one thread's samples with tid", "[stats][cpu_samples]") {
  const std::string report = MakeCpuSampleReport("sum_tid");
  CHECK(RunWithOptions(report, "cpu_sample_sum", {"tid=1234"}) ==
        TextRows{
            kSumColumns,
            {"70.0", "7", "70.0", "7", "1234", "python", "matmul", "/usr/lib/libtorch.so"},
            {"30.0", "3", "30.0", "3", "1234", "python", "0x7f0000001234", "/usr/lib/libcuda.so.1"},
            {"0.0", "0", "100.0", "10", "1234", "python", "Trainer.train", "/w/train.py"},
            {"0.0", "0", "100.0", "10", "1234", "python", "main", "/usr/bin/python3.12"},
            {"0.0", "0", "70.0", "7", "1234", "python", "Trainer.step", "/w/train.py"},
            {"0.0", "0", "30.0", "3", "1234", "python", "load_batch", "/w/data.py"}});
}

TEST_CASE("cpu_sample_sum keeps the samples inside an NVTX range with nvtx",
          "[stats][cpu_samples]") {
  const std::string report = MakeCpuSampleReport("sum_nvtx");
  // "batch" is open on thread 1234 from 650 to 950: samples at 700 (matmul), 800 and 900.
  CHECK(RunWithOptions(report, "cpu_sample_sum", {"nvtx=batch"}) ==
        TextRows{
            kSumColumns,
            {"66.7", "2", "66.7", "2", "1234", "python", "0x7f0000001234", "/usr/lib/libcuda.so.1"},
            {"33.3", "1", "33.3", "1", "1234", "python", "matmul", "/usr/lib/libtorch.so"},
            {"0.0", "0", "100.0", "3", "1234", "python", "Trainer.train", "/w/train.py"},
            {"0.0", "0", "100.0", "3", "1234", "python", "main", "/usr/bin/python3.12"},
            {"0.0", "0", "66.7", "2", "1234", "python", "load_batch", "/w/data.py"},
            {"0.0", "0", "33.3", "1", "1234", "python", "Trainer.step", "/w/train.py"}});
  // A name no range has, and a thread without samples: no rows (the runner's SKIPPED line).
  CHECK(RunWithOptions(report, "cpu_sample_sum", {"nvtx=nothing"}).size() == 1);
  CHECK(RunWithOptions(report, "cpu_sample_sum", {"tid=1240", "nvtx=batch"}).size() == 1);
}

TEST_CASE("cpu_sample_tree lists the call tree depth first - cut at 1 % by default",
          "[stats][cpu_samples]") {
  const std::string report = MakeCpuSampleReport("tree");
  const TextRows expected = {
      kTreeColumns,
      {"71.4", "10", "0", "1234", "python", "main", "/usr/bin/python3.12"},
      {"71.4", "10", "0", "1234", "python", "  Trainer.train", "/w/train.py"},
      {"50.0", "7", "0", "1234", "python", "    Trainer.step", "/w/train.py"},
      {"50.0", "7", "7", "1234", "python", "      matmul", "/usr/lib/libtorch.so"},
      {"21.4", "3", "0", "1234", "python", "    load_batch", "/w/data.py"},
      {"21.4", "3", "3", "1234", "python", "      0x7f0000001234", "/usr/lib/libcuda.so.1"},
      {"28.6", "4", "0", "1234", "python", "start_thread", "/usr/lib/libc.so.6"},
      {"28.6", "4", "2", "1234", "python", "  fib", "/w/libfib.so"},
      {"14.3", "2", "0", "1234", "python", "    fib", "/w/libfib.so"},
      {"14.3", "2", "2", "1234", "python", "      fib", "/w/libfib.so"},
      {"100.0", "5", "2", "2000", "trainer", "main", "/usr/bin/trainer"},
      {"60.0", "3", "3", "2000", "trainer", "  compute", "/usr/bin/trainer"}};
  CHECK(RunWithOptions(report, "cpu_sample_tree", {}) == expected);
  // cutoff=20 drops the recursive fib nodes (14.3 %) only.
  TextRows cut = expected;
  cut.erase(cut.begin() + 9, cut.begin() + 11);
  CHECK(RunWithOptions(report, "cpu_sample_tree", {"cutoff=20"}) == cut);
  CHECK(RunWithOptions(report, "cpu_sample_tree", {"tid=2000", "cutoff=50"}) ==
        TextRows{kTreeColumns,
                 {"100.0", "5", "2", "2000", "trainer", "main", "/usr/bin/trainer"},
                 {"60.0", "3", "3", "2000", "trainer", "  compute", "/usr/bin/trainer"}});
}

TEST_CASE("cpu_sample_tree with lines has a node per Python frame and line",
          "[stats][cpu_samples]") {
  // Trainer.train called Trainer.step from line 10 and load_batch from line 12: two nodes.
  const std::string report = MakeCpuSampleReport("tree_lines");
  CHECK(RunWithOptions(report, "cpu_sample_tree", {"tid=1234", "lines"}) ==
        TextRows{
            kTreeColumns,
            {"100.0", "10", "0", "1234", "python", "main", "/usr/bin/python3.12"},
            {"70.0", "7", "0", "1234", "python", "  Trainer.train:10", "/w/train.py"},
            {"70.0", "7", "0", "1234", "python", "    Trainer.step:20", "/w/train.py"},
            {"70.0", "7", "7", "1234", "python", "      matmul", "/usr/lib/libtorch.so"},
            {"30.0", "3", "0", "1234", "python", "  Trainer.train:12", "/w/train.py"},
            {"30.0", "3", "0", "1234", "python", "    load_batch:5", "/w/data.py"},
            {"30.0", "3", "3", "1234", "python", "      0x7f0000001234", "/usr/lib/libcuda.so.1"}});
}

TEST_CASE("CPU sample reports without samples have no rows", "[stats][cpu_samples]") {
  const std::string empty =
      MakeReport("cpu_samples_empty", {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS"}, "SELECT 1;");
  CHECK(RunReport(empty, "cpu_sample_sum").rows.empty());
  CHECK(RunReport(empty, "cpu_sample_tree").rows.empty());
  // Without the tables the report is not run at all (SKIPPED, as stats_cli_test checks).
  const std::string absent = MakeReport("cpu_samples_absent", {"NVTX_EVENTS"}, "SELECT 1;");
  storage::Database db;
  REQUIRE(OpenReportDatabase(absent, &db).ok());
  bool present = true;
  REQUIRE(HasRequiredTables(&db, *FindReport("cpu_sample_sum"), &present).ok());
  CHECK_FALSE(present);
}

TEST_CASE("valued report options are checked - each given once", "[stats][cpu_samples]") {
  const std::string report = MakeCpuSampleReport("options");
  storage::Database db;
  REQUIRE(OpenReportDatabase(report, &db).ok());
  std::vector<ReportRequest> requests;
  REQUIRE(SelectReports({"cpu_sample_tree:tid=7:cutoff=0.5:nvtx=a b/c"}, &db, &requests).ok());
  CHECK(requests[0].options == std::vector<std::string>{"tid=7", "cutoff=0.5", "nvtx=a b/c"});
  CHECK(requests[0].FileStem() == "cpu_sample_tree_tid=7_cutoff=0.5_nvtx=a_b_c");
  const auto error = [&](const std::string& request) {
    std::vector<ReportRequest> out;
    const Status status = SelectReports({request}, &db, &out);
    REQUIRE_FALSE(status.ok());
    return status.message();
  };
  CHECK(error("cpu_sample_sum:tid=x") ==
        "option tid of report cpu_sample_sum takes <integer> (got 'x')");
  CHECK(error("cpu_sample_sum:tid=") ==
        "option tid of report cpu_sample_sum takes <integer> (got '')");
  CHECK(error("cpu_sample_tree:cutoff=5%") ==
        "option cutoff of report cpu_sample_tree takes <number> (got '5%')");
  CHECK(error("cpu_sample_sum:tid") ==
        "unknown option 'tid' of report cpu_sample_sum; valid options: tid=<integer>, "
        "nvtx=<text>, lines");
  CHECK(error("cpu_sample_sum:cutoff=1") ==
        "unknown option 'cutoff=1' of report cpu_sample_sum; valid options: tid=<integer>, "
        "nvtx=<text>, lines");
  CHECK(error("cpu_sample_sum:tid=1:tid=2") ==
        "option tid of report cpu_sample_sum is given twice");
  CHECK(error("cuda_gpu_kern_sum:base=1") ==
        "unknown option 'base=1' of report cuda_gpu_kern_sum; valid options: base, mangled");
}

}  // namespace
}  // namespace prof::stats::test
