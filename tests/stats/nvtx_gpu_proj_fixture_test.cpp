// nvtx_gpu_proj_trace and nvtx_gpu_proj_sum on the hand-made report of cuda_trace_fixture.h,
// answers worked out by hand:
//   :outer [0,1000]  calls 1, 2, 3, 4 (6 has no GPU work) -> [1000,1510], 4 ops
//   :inner [100,400] calls 1, 2 (3 ends after the range)  -> [1000,1250], 2 ops
//   :leaf  [150,250] call 2                               -> [1200,1250], 1 op
//   :idle  [500,600] no calls                             -> left out, not a child of :outer
//   :inner [2000,2300] call 7                             -> [2500,2500], 1 op
//   :other (T2) call 5 -> [2000,2100]; :async (start/end) calls 1-4 -> [1000,1510], level 0
//   P2's kernel K4 shares correlation id 1 with T1's first call but belongs to no range.
#include <catch2/catch.hpp>

#include "tests/stats/cuda_trace_fixture.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

using Row = std::vector<std::string>;

TEST_CASE("nvtx_gpu_proj_trace projects each range onto its GPU work", "[stats][nvtx][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("proj_trace"), "nvtx_gpu_proj_trace");
  CHECK(table.columns == Row{"Name", "Projected Start (ns)", "Projected Duration (ns)",
                             "Orig Start (ns)", "Orig Duration (ns)", "Style", "PID", "TID",
                             "NumGPUOps", "Lvl", "NumChild", "RangeId", "ParentId", "RangeStack"});
  CHECK(Texts(table) == TextRows{
                            {":outer", "1000", "510", "0", "1000", "PushPop", "100", "1", "4", "0",
                             "1", "1", "", ":1"},
                            {":other", "2000", "100", "0", "1000", "PushPop", "100", "2", "1", "0",
                             "0", "2", "", ":2"},
                            {":async", "1000", "510", "50", "850", "StartEnd", "100", "1", "4", "0",
                             "0", "3", "", ":3"},
                            {":inner", "1000", "250", "100", "300", "PushPop", "100", "1", "2", "1",
                             "1", "4", "1", ":1:4"},
                            {":leaf", "1200", "50", "150", "100", "PushPop", "100", "1", "1", "2",
                             "0", "5", "4", ":1:4:5"},
                            {":inner", "2500", "0", "2000", "300", "PushPop", "100", "1", "1", "0",
                             "0", "6", "", ":6"},
                        });
}

TEST_CASE("nvtx_gpu_proj_sum summarizes the projections per range name", "[stats][nvtx][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("proj_sum"), "nvtx_gpu_proj_sum");
  CHECK(table.columns == Row{"Range", "Style", "Total Proj Time (ns)", "Total Range Time (ns)",
                             "Range Instances", "Proj Avg (ns)", "Proj Med (ns)", "Proj Min (ns)",
                             "Proj Max (ns)", "Proj StdDev (ns)", "Total GPU Ops", "Avg GPU Ops",
                             "Avg Range Lvl", "Avg Num Child"});
  // :async and :outer tie at 510 ns: by name. :inner's StdDev is sqrt(2 * 125^2) = 176.78.
  CHECK(Texts(table) == TextRows{
                            {":async", "StartEnd", "510", "850", "1", "510.0", "510.0", "510",
                             "510", "0.0", "4", "4.0", "0.0", "0.0"},
                            {":outer", "PushPop", "510", "1000", "1", "510.0", "510.0", "510",
                             "510", "0.0", "4", "4.0", "0.0", "1.0"},
                            {":inner", "PushPop", "250", "600", "2", "125.0", "125.0", "0", "250",
                             "176.8", "3", "1.5", "0.5", "0.5"},
                            {":other", "PushPop", "100", "1000", "1", "100.0", "100.0", "100",
                             "100", "0.0", "1", "1.0", "0.0", "0.0"},
                            {":leaf", "PushPop", "50", "100", "1", "50.0", "50.0", "50", "50",
                             "0.0", "1", "1.0", "2.0", "0.0"},
                        });
}

}  // namespace
}  // namespace prof::stats::test
