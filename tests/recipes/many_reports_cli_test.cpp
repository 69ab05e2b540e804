// prof stats and prof analyze over a directory of synthetic rank reports (make_rank_reports):
// the per-file rows, the summary across ranks with the slow rank as the outlier, the same output
// whatever the number of jobs, patterns, and one-line errors.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace prof::test {
namespace {

constexpr int kRanks = 8;
constexpr const char* kSlowRank = "5";

// A directory of kRanks reports of 700 events (100 steps); rank 5 is slow.
std::string RankReports(const std::string& name) {
  const std::string dir = MakeTempDir(name);
  const CommandResult made =
      RunCommand({TestProgram("make_rank_reports"), dir, std::to_string(kRanks), "700", kSlowRank});
  REQUIRE(made.exit_code == 0);
  return dir;
}

CommandResult Prof(std::vector<std::string> args) {
  args.insert(args.begin(), ProfBinary());
  return RunCommand(args);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The lines after the blank line that separates a report's rows from its summary.
std::vector<std::string> SummaryLines(const std::string& out) {
  const std::vector<std::string> lines = Lines(out);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) return {lines.begin() + static_cast<long>(i) + 1, lines.end()};
  }
  return {};
}

TEST_CASE("prof stats on a directory summarizes the ranks and names the slow one",
          "[recipes][cli]") {
  const std::string dir = RankReports("many_reports_stats");
  const CommandResult result = Prof({"stats", "-r", "cuda_gpu_kern_sum:base", "-f", "csv", dir});
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const std::vector<std::string> lines = Lines(result.out);
  CHECK(lines[0].rfind("File,Rank,Time (%),Total Time (ns)", 0) == 0);
  CHECK(lines[1].rfind("rank0.sqlite,0,", 0) == 0);
  const std::vector<std::string> summary = SummaryLines(result.out);
  REQUIRE(summary.size() == 7);  // header + 6 kernels
  CHECK(summary[0] ==
        "Name,Ranks,Min Total Time (ns),Med Total Time (ns),Max Total Time (ns),Max Rank,"
        "Outlier Ranks");
  for (const char* kernel : {"gemm_bwd", "gemm_fwd", "adam_update", "softmax", "layer_norm"}) {
    const auto row = std::find_if(summary.begin(), summary.end(), [&](const std::string& line) {
      return line.rfind(std::string(kernel) + ",", 0) == 0;
    });
    REQUIRE(row != summary.end());
    CHECK(row->substr(row->size() - 4) == ",5,5");  // the slowest rank, and the only outlier
  }
}

TEST_CASE("prof stats gives the same output with one job and with several", "[recipes][cli]") {
  const std::string dir = RankReports("many_reports_jobs");
  const CommandResult one = Prof({"stats", "-j", "1", "-r", "nvtx_sum,cuda_gpu_kern_sum", dir});
  const CommandResult three =
      Prof({"stats", "-j", "3", "-r", "nvtx_sum,cuda_gpu_kern_sum", dir + "/rank*.sqlite"});
  REQUIRE(one.exit_code == 0);
  CHECK(three.exit_code == 0);
  CHECK(one.out == three.out);
  CHECK(one.out.find(" ** NVTX Range Summary across ranks (nvtx_sum):") != std::string::npos);
}

TEST_CASE("prof analyze on a directory gives every rank's findings and their summary",
          "[recipes][cli]") {
  const std::string dir = RankReports("many_reports_analyze");
  const CommandResult result =
      Prof({"analyze", "-q", "-f", "csv", "-r", "gpu_gaps:gap=1:rows=-1", dir});
  REQUIRE(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.out);
  CHECK(lines[0] == "File,Rank,Row#,Duration (ns),Start (ns),PID,Device ID,Context ID");
  CHECK(lines[1].rfind("rank5.sqlite,5,1,", 0) == 0);  // only the slow rank idles over 1 ms
  const std::vector<std::string> summary = SummaryLines(result.out);
  REQUIRE(summary.size() == 2);
  CHECK(summary[1].rfind("1,", 0) == 0);  // one rank has gaps
  CHECK(summary[1].substr(summary[1].size() - 3) == ",5,");

  const CommandResult overlap = Prof({"analyze", "-f", "csv", "-r", "nccl_overlap", dir});
  REQUIRE(overlap.exit_code == 0);
  CHECK(Lines(overlap.out).size() == 1 + kRanks + 1 + 2);  // rows, blank, summary
}

TEST_CASE("prof stats and analyze refuse an empty directory and a pattern without matches",
          "[recipes][cli]") {
  const std::string dir = MakeTempDir("many_reports_empty");
  const CommandResult stats = Prof({"stats", dir});
  CHECK(stats.exit_code == 1);
  CHECK(stats.out.empty());
  CHECK(stats.err == "prof: error: directory " + dir + " has no .sqlite reports\n");
  const CommandResult analyze = Prof({"analyze", dir + "/rank*.sqlite"});
  CHECK(analyze.exit_code == 1);
  CHECK(analyze.err == "prof: error: no report file matches " + dir + "/rank*.sqlite\n");
}

}  // namespace
}  // namespace prof::test
