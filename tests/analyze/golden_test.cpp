// Golden test: on a real nsys export (tests/data/nsys-torch_mix), each of nsys's six rules writes
// the csv NVIDIA's `nsys analyze` wrote (tests/analyze/data/analyze_<rule>.csv) cell by cell, and
// writes no file where nsys's is empty; prof's sync_hotspots gives the rows independent queries
// give.
#include <catch2/catch.hpp>
#include <filesystem>

#include "analyze/analyze_runner.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::analyze {
namespace {

using stats::test::ParseCsv;
using stats::test::ReadFile;
using stats::test::TextRows;

const std::string kReport = std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite";
const std::string kExpectedDir = PROF_ANALYZE_TEST_DATA;

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

TEST_CASE("nsys's six rules on torch_mix equal nsys analyze's csv", "[analyze][golden]") {
  const std::string rule =
      GENERATE(as<std::string>{}, "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync",
               "cuda_api_sync", "gpu_gaps", "gpu_time_util");
  INFO(rule);
  const std::string out = prof::test::MakeTempDir("analyze_golden_" + rule);
  AnalyzeOptions options;
  options.rules = {rule};
  options.format = "csv";
  options.output = out + "/prof";
  options.quiet = true;
  const Status status = RunAnalyze(kReport, options);
  INFO(status.message());
  REQUIRE(status.ok());

  const std::string expected = ReadFile(kExpectedDir + "/analyze_" + rule + ".csv");
  const std::string written = out + "/prof_" + rule + ".csv";
  if (expected.empty()) {
    CHECK_FALSE(std::filesystem::exists(written));
    return;
  }
  const std::string actual = ReadFile(written);
  CheckSameCells(ParseCsv(actual), ParseCsv(expected));
  CHECK(actual == expected);
}

// Checked against independent sqlite3 queries on the export: the stream syncs and pageable copies
// of the :h2d and :sync ranges of steps 2 to 40 (the steady state skips step 1).
TEST_CASE("sync_hotspots on torch_mix finds the per-step waits", "[analyze][golden]") {
  const std::string out = prof::test::MakeTempDir("analyze_golden_sync_hotspots");
  AnalyzeOptions options;
  options.rules = {"sync_hotspots"};
  options.output = out + "/prof";
  options.quiet = true;
  REQUIRE(RunAnalyze(kReport, options).ok());
  CHECK(ReadFile(out + "/prof_sync_hotspots.csv") ==
        "Host Time (ns),Calls,Avg (ns),Max (ns),Range Instances,PID,TID,NVTX Range,Kind,API Name,"
        "Python Line\n"
        "12585824,39,322713.4,606731,39,490,490,:h2d,pageable async copy,cudaMemcpyAsync,\n"
        "895722,39,22967.2,33237,39,490,490,:h2d,stream sync,cudaStreamSynchronize,\n"
        "290012,39,7436.2,17822,39,490,490,:sync,stream sync,cudaStreamSynchronize,\n");
}

}  // namespace
}  // namespace prof::analyze
