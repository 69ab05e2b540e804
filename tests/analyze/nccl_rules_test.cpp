// nccl_overlap and nccl_skew on a hand-made two-rank report (the shape `prof merge` gives a
// torchrun job), with every answer worked out by hand below.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/analyze/analyze_test_util.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

struct Kernel {
  uint32_t pid;
  int64_t start;
  int64_t end;
  int name;  // StringIds id, as shortName and demangledName
};

std::string KernelInserts(const std::vector<Kernel>& kernels) {
  std::string sql;
  for (const Kernel& k : kernels) {
    const std::string name = std::to_string(k.name);
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
        " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
        " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
        " localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
        std::to_string(k.start) + ", " + std::to_string(k.end) + ", 0, 1, 7, 0, " +
        std::to_string(storage::GlobalPid(k.pid)) + ", " + name + ", " + name +
        ", 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1);";
  }
  return sql;
}

// Ranks 0 (pid 100) and 1 (pid 200), one GPU each. Names: 1 all-reduce, 2 gemm, 3 broadcast.
//   pid 100: gemm [100,1000] [1500,2000]; all-reduce [800,1800] (200 + 300 under gemm),
//            [3000,3400]; broadcast [5000,5100]         -> NCCL 1500 ns, 500 overlapped
//   pid 200: gemm [100,500] [400,900] (busy [100,900]); all-reduce [850,1800] (50 under gemm),
//            [3100,3400]; broadcast [5000,5100]         -> NCCL 1350 ns, 50 overlapped
// Collectives: all-reduce 1 starts 800/850 (skew 50, pid 200 last), all-reduce 2 3000/3100
// (skew 100, pid 200 last), broadcast 1 5000/5000 (skew 0, nobody last).
std::string TwoRankReport(const std::string& name, bool with_ranks) {
  std::string rows =
      "INSERT INTO StringIds VALUES (1, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'),"
      " (2, 'gemm'), (3, 'ncclDevKernel_Broadcast_RING_LL');" +
      KernelInserts({{100, 100, 1000, 2},
                     {100, 1500, 2000, 2},
                     {100, 800, 1800, 1},
                     {100, 3000, 3400, 1},
                     {100, 5000, 5100, 3},
                     {200, 100, 500, 2},
                     {200, 400, 900, 2},
                     {200, 850, 1800, 1},
                     {200, 3100, 3400, 1},
                     {200, 5000, 5100, 3}});
  if (with_ranks) {
    rows +=
        "CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
        "INSERT INTO MPI_RANKS VALUES (" +
        std::to_string(storage::GlobalTid(100, 100)) + ", 0), (" +
        std::to_string(storage::GlobalTid(200, 200)) + ", 1);";
  }
  return stats::test::MakeReport(name, {"CUPTI_ACTIVITY_KIND_KERNEL"}, rows);
}

TEST_CASE("nccl_overlap measures NCCL time hidden by compute, per rank", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(TwoRankReport("nccl_overlap", true), "nccl_overlap");
  CHECK(output.columns == Row{"PID", "Rank", "Device ID", "NCCL Kernels", "NCCL Time (ns)",
                              "Overlapped Time (ns)", "Overlap (%)", "Last Arrivals"});
  CHECK(output.rows == TextRows{{"100", "0", "0", "3", "1500", "500", "33.3", "0"},
                                {"200", "1", "0", "3", "1350", "50", "3.7", "2"}});
}

TEST_CASE("nccl_skew matches collectives by order and names the last rank", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(TwoRankReport("nccl_skew", true), "nccl_skew");
  CHECK(output.columns == Row{"Collective", "Instances", "Ranks", "Med Skew (ns)", "Max Skew (ns)",
                              "Most Often Last PID", "Most Often Last Rank", "Times Last"});
  CHECK(output.rows ==
        TextRows{
            {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "2", "2", "75.0", "100", "200", "1", "2"},
            {"ncclDevKernel_Broadcast_RING_LL", "1", "2", "0.0", "0", "", "", "0"}});
}

TEST_CASE("the NCCL rules work without recorded ranks", "[analyze][rules]") {
  const std::string report = TwoRankReport("nccl_no_ranks", false);
  const RuleOutput overlap = RunRuleOn(report, "nccl_overlap");
  CHECK(overlap.rows == TextRows{{"100", "", "0", "3", "1500", "500", "33.3", "0"},
                                 {"200", "", "0", "3", "1350", "50", "3.7", "2"}});
  const RuleOutput skew = RunRuleOn(report, "nccl_skew");
  REQUIRE(skew.rows.size() == 2);
  CHECK(skew.rows[0] ==
        Row{"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "2", "2", "75.0", "100", "200", "", "2"});
}

TEST_CASE("the NCCL rules find nothing in a one-process report without NCCL", "[analyze][rules]") {
  const std::string report = stats::test::MakeReport(
      "nccl_none", {"CUPTI_ACTIVITY_KIND_KERNEL"},
      "INSERT INTO StringIds VALUES (2, 'gemm');" + KernelInserts({{100, 100, 1000, 2}}));
  CHECK(RunRuleOn(report, "nccl_overlap").rows.empty());
  CHECK(RunRuleOn(report, "nccl_skew").rows.empty());
}

}  // namespace
}  // namespace prof::analyze::test
