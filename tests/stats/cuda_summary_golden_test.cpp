// Golden test of the CUDA summary reports: on a real nsys export (tests/data/nsys-torch_mix),
// prof's csv output of cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum,
// cuda_gpu_mem_size_sum, cuda_kern_exec_sum and cuda_api_gpu_sum equals NVIDIA's `nsys stats` csv
// cell by cell; cuda_gpu_sum (no NVIDIA csv) agrees with the kernel and memory summaries.
#include <catch2/catch.hpp>

#include "stats/stats_runner.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

const std::string kDataDir = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix";
const std::string kReport = kDataDir + "/torch_mix.sqlite";

// Runs `reports` into csv files under a fresh directory; returns the file prefix.
std::string RunCsv(const std::string& name, const std::vector<std::string>& reports) {
  const std::string prefix = prof::test::MakeTempDir(name) + "/prof";
  StatsOptions options;
  options.reports = reports;
  options.format = "csv";
  options.output = prefix;
  options.quiet = true;
  const Status status = RunStats(kReport, options);
  INFO(status.message());
  REQUIRE(status.ok());
  return prefix;
}

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

TEST_CASE("CUDA summaries equal nsys stats csv on torch_mix", "[stats][golden][cuda]") {
  const std::vector<std::string> reports = {"cuda_api_sum",          "cuda_gpu_kern_sum",
                                            "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum",
                                            "cuda_kern_exec_sum",    "cuda_api_gpu_sum"};
  const std::string prefix = RunCsv("stats_cuda_golden", reports);
  for (const std::string& report : reports) {
    INFO(report);
    const std::string expected = ReadFile(kDataDir + "/nsys_" + report + ".csv");
    const std::string actual = ReadFile(prefix + "_" + report + ".csv");
    CheckSameCells(ParseCsv(actual), ParseCsv(expected));
    CHECK(actual == expected);
  }
}

}  // namespace
}  // namespace prof::stats::test
