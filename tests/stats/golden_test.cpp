// Golden test: on a real nsys export (tests/data/nsys-torch_mix), prof's csv output of nvtx_sum,
// nvtx_pushpop_sum, osrt_sum and of the default reports equals NVIDIA's `nsys stats` csv cell by
// cell.
#include <catch2/catch.hpp>
#include <filesystem>

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

TEST_CASE("csv output equals nsys stats on torch_mix", "[stats][golden]") {
  const std::string out = prof::test::MakeTempDir("stats_golden");
  StatsOptions options;
  options.reports = {"nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "osrt_sum"};
  options.format = "csv";
  options.output = out + "/prof";
  options.quiet = true;
  const Status status = RunStats(kReport, options);
  INFO(status.message());
  REQUIRE(status.ok());

  for (const std::string report : {"nvtx_sum", "nvtx_pushpop_sum", "osrt_sum"}) {
    INFO(report);
    const std::string expected = ReadFile(kDataDir + "/nsys_" + report + ".csv");
    const std::string actual = ReadFile(out + "/prof_" + report + ".csv");
    CheckSameCells(ParseCsv(actual), ParseCsv(expected));
    CHECK(actual == expected);
  }
  // nsys wrote nothing for nvtx_startend_sum (no start/end ranges); prof skips it too.
  CHECK(ReadFile(kDataDir + "/nsys_nvtx_startend_sum.csv").empty());
  CHECK_FALSE(std::filesystem::exists(out + "/prof_nvtx_startend_sum.csv"));
}

TEST_CASE("the torch_mix defaults are nsys's six in nsys's order", "[stats][golden]") {
  const std::string out = prof::test::MakeTempDir("stats_golden_defaults");
  StatsOptions options;
  options.output = out + "/d";
  options.quiet = true;
  REQUIRE(RunStats(kReport, options).ok());
  const std::vector<std::string> defaults = {"nvtx_sum",
                                             "osrt_sum",
                                             "cuda_api_sum",
                                             "cuda_gpu_kern_sum",
                                             "cuda_gpu_mem_time_sum",
                                             "cuda_gpu_mem_size_sum"};
  std::vector<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    written.push_back(entry.path().filename());
  }
  CHECK(written.size() == defaults.size());
  for (const std::string& report : defaults) {
    INFO(report);
    CHECK(ReadFile(out + "/d_" + report + ".csv") ==
          ReadFile(kDataDir + "/nsys_" + report + ".csv"));
  }
}

TEST_CASE("nvtx_pushpop_trace on torch_mix nests h2d and sync in step", "[stats][golden]") {
  const ResultTable table = RunReport(kReport, "nvtx_pushpop_trace");
  const TextRows rows = Texts(table);
  REQUIRE(rows.size() == 121);  // 1 setup + 40 x (step, h2d, sync)
  CHECK(rows[0] == std::vector<std::string>{"4785384924", "5270950828", "485565904", "0",
                                            "485565904", ":setup", "490", "490", "0", "0", "1", "",
                                            ":1", ":setup"});
  CHECK(rows[1] == std::vector<std::string>{"5271504711", "5555618692", "284113981", "5656911",
                                            "278457070", ":step", "490", "490", "0", "2", "2", "",
                                            ":2", ":step"});
  CHECK(rows[2] == std::vector<std::string>{"5271527293", "5275251944", "3724651", "0", "3724651",
                                            ":h2d", "490", "490", "1", "0", "3", "2", ":2:3",
                                            "--:h2d"});
  size_t children = 0;
  for (const auto& row : rows) {
    if (row[5] == ":h2d" || row[5] == ":sync") {
      ++children;
      CHECK(row[8] == "1");
    }
  }
  CHECK(children == 80);
}

}  // namespace
}  // namespace prof::stats::test
