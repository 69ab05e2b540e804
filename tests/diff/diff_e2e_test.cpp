// `prof diff` on reports of real runs of the bundled example (examples/training_loop.cpp): runs of
// one build pass with the default gate, a build whose compute is 3x slower fails it.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::diff::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;

constexpr int kNoRegression = 0;
constexpr int kRegression = 1;

// Profiles `training_loop 20 <work>` with NVTX and OS runtime tracing; returns the report's path.
std::string Profile(const std::string& dir, const std::string& name, const std::string& work) {
  const std::string report = dir + "/" + name + ".sqlite";
  const CommandResult run = RunCommand({ProfBinary(), "profile", "--trace=nvtx,osrt", "-q", "-o",
                                        report, PROF_TRAINING_LOOP, "20", work});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return report;
}

CommandResult Diff(const std::string& base, const std::string& candidate,
                   const std::vector<std::string>& options = {}) {
  std::vector<std::string> args = {ProfBinary(), "diff", "-f", "csv"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {base, candidate});
  return RunCommand(args);
}

// The status of each row of a csv diff whose Name is `name`.
std::string StatusOf(const CommandResult& diff, const std::string& name) {
  for (const auto& row : stats::test::ParseCsv(diff.out)) {
    if (row.back() == name) return row.front();
  }
  return "(no row " + name + ")";
}

TEST_CASE("prof diff passes every pair of five runs of one build", "[diff][e2e]") {
  const std::string dir = prof::test::MakeTempDir("diff_same_build");
  std::vector<std::string> reports;
  for (int run = 0; run < 5; ++run)
    reports.push_back(Profile(dir, "run" + std::to_string(run), "1"));
  for (const std::string& base : reports) {
    for (const std::string& candidate : reports) {
      if (base == candidate) continue;
      const CommandResult diff = Diff(base, candidate);
      INFO(base << " -> " << candidate << "\n" << diff.err << diff.out);
      CHECK(diff.exit_code == kNoRegression);
    }
  }
}

TEST_CASE("prof diff fails a build whose forward and backward ranges take 3x as long",
          "[diff][e2e]") {
  const std::string dir = prof::test::MakeTempDir("diff_slower_build");
  const std::string base = Profile(dir, "base", "1");
  const std::string slower = Profile(dir, "slower", "3");
  const CommandResult diff = Diff(base, slower);
  INFO(diff.err << diff.out);
  CHECK(diff.exit_code == kRegression);
  CHECK(StatusOf(diff, ":forward") == "regressed");
  CHECK(StatusOf(diff, ":backward") == "regressed");
  // Faster is not slower.
  CHECK(Diff(slower, base).exit_code == kNoRegression);
}

}  // namespace
}  // namespace prof::diff::test
