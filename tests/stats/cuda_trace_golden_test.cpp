// Golden tests of the CUDA trace and NVTX GPU projection reports on a real nsys export
// (tests/data/nsys-torch_mix): cuda_api_trace, cuda_gpu_trace and nvtx_gpu_proj_sum equal
// NVIDIA's `nsys stats` csv cell by cell; nvtx_gpu_proj_trace, which has no nsys csv, agrees with
// nvtx_gpu_proj_sum and with the ranges' known shape.
#include <catch2/catch.hpp>
#include <filesystem>

#include "stats/report_database.h"
#include "stats/report_query.h"
#include "stats/stats_runner.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

const std::string kDataDir = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix";
const std::string kReport = kDataDir + "/torch_mix.sqlite";

void CheckSameCells(const TextRows& actual, const TextRows& expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    REQUIRE(actual[r].size() == expected[r].size());
    for (size_t c = 0; c < expected[r].size(); ++c) {
      INFO("row " << r << ", column " << expected[0][c]);
      CHECK(actual[r][c] == expected[r][c]);
    }
  }
}

TextRows RunWithOptions(const std::string& report, const std::vector<std::string>& options) {
  storage::Database db;
  REQUIRE(OpenReportDatabase(kReport, &db).ok());
  const ReportSpec* spec = FindReport(report);
  REQUIRE(spec != nullptr);
  ResultTable table;
  const Status status = RunReportQuery(&db, *spec, options, &table);
  INFO(status.message());
  REQUIRE(status.ok());
  return Texts(table);
}

TEST_CASE("cuda trace and gpu projection csv equal nsys stats on torch_mix", "[stats][golden]") {
  const std::string out = prof::test::MakeTempDir("stats_cuda_trace_golden");
  StatsOptions options;
  options.reports = {"cuda_api_trace", "cuda_gpu_trace", "nvtx_gpu_proj_sum"};
  options.format = "csv";
  options.output = out + "/prof";
  options.quiet = true;
  const Status status = RunStats(kReport, options);
  INFO(status.message());
  REQUIRE(status.ok());

  for (const std::string& report : options.reports) {
    INFO(report);
    const std::string expected = ReadFile(kDataDir + "/nsys_" + report + ".csv");
    const std::string actual = ReadFile(out + "/prof_" + report + ".csv");
    CheckSameCells(ParseCsv(actual), ParseCsv(expected));
    CHECK(actual == expected);
  }
}

TEST_CASE("cuda_gpu_trace names kernels by base name with the base option", "[stats][golden]") {
  const TextRows rows = RunWithOptions("cuda_gpu_trace", {"base"});
  REQUIRE(rows.size() == 522);
  CHECK(rows[0][20] == "distribution_elementwise_grid_stride_kernel");
  CHECK(rows[1][20] == "[CUDA memcpy Host-to-Device]");
  CHECK(rows[3][20] ==
        "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
        "alignc4_execute_kernel__5x_cublas");
}

TEST_CASE("nvtx_gpu_proj_trace on torch_mix projects setup step h2d and sync", "[stats][golden]") {
  const TextRows rows = Texts(RunReport(kReport, "nvtx_gpu_proj_trace"));
  REQUIRE(rows.size() == 121);  // 1 setup + 40 x (step, h2d, sync), every one with GPU work
  // :setup holds the first kernel only (5235900071 + 5279 ns).
  CHECK(rows[0] == std::vector<std::string>{":setup", "5235900071", "5279", "4785384924",
                                            "485565904", "PushPop", "490", "490", "1", "0", "0",
                                            "1", "", ":1"});
  // The first :step: 13 GPU operations, two of them in :h2d, one in :sync.
  CHECK(rows[1] == std::vector<std::string>{":step", "5274719957", "280833352", "5271504711",
                                            "284113981", "PushPop", "490", "490", "13", "0", "2",
                                            "2", "", ":2"});
  CHECK(rows[2] == std::vector<std::string>{":h2d", "5274719957", "660988", "5271527293", "3724651",
                                            "PushPop", "490", "490", "2", "1", "0", "3", "2",
                                            ":2:3"});
  size_t ops = 0;
  for (const auto& row : rows) ops += std::stoul(row[8]);
  CHECK(ops == 1 + 520 + 80 + 40);
}

}  // namespace
}  // namespace prof::stats::test
