// `prof merge` through the prof executable: its messages, exit codes, and the merged report read
// back by `prof stats`.
#include <catch2/catch.hpp>

#include "tests/merge/merge_fixture.h"
#include "tests/support/test_support.h"

namespace prof::merge::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;

CommandResult Prof(std::vector<std::string> args) {
  args.insert(args.begin(), ProfBinary());
  return RunCommand(args);
}

TEST_CASE("prof merge says how it aligned the reports", "[merge][cli]") {
  const std::string rank0 = RankZeroReport("cli_rank0");
  const std::string rank1 = RankOneReport("cli_rank1");
  const std::string output = prof::test::MakeTempDir("merge_cli") + "/all";
  const CommandResult result = Prof({"merge", "-o", output, rank0, rank1});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err ==
        "prof: aligned 2 reports by their session start times in UTC (offsets 0, 500 ns): exact "
        "for reports of one host, as exact as the hosts' clocks agree across hosts\n"
        "prof: wrote " +
            output + ".sqlite\n");

  const CommandResult stats =
      Prof({"stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", output + ".sqlite"});
  CHECK(stats.exit_code == 0);
  CHECK(stats.out ==
        "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
        "66.7,20,2,10.0,10.0,10,10,0.0,gemm\n"
        "33.3,10,1,10.0,10.0,10,10,0.0,ncclKernel_AllReduce\n");
}

TEST_CASE("prof merge fails with one line and exit status 1", "[merge][cli]") {
  const std::string rank0 = RankZeroReport("cli_fail_rank0");
  const std::string output = prof::test::MakeTempDir("merge_cli_fail") + "/all.sqlite";
  const CommandResult result = Prof({"merge", "-o", output, rank0, rank0});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: error: " + rank0 + " is given twice (also as " + rank0 + ")\n");
}

}  // namespace
}  // namespace prof::merge::test
