// idle_class, gap_cause and gap_cause_sum on hand-made timelines whose answers are worked out by
// hand below.
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"
#include "tests/analyze/gap_cause_fixture.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

// pid 100, device 0; every operation launched by T1 (correlation: stream [start,end] launch).
//   Stream 7: 1 [100,200] at 50; 2 [300,400] at 250 (after the stream went idle at 200: host
//     wait 100); 3 [500,600] at 280 (queued before the gap from 400; stream 8 ends at 450 inside
//     it: dependency wait 100); 4 [700,800] at 290 (queued, nothing ends in (600,700]: other 100)
//   Stream 8: 5 [350,450] at 260; 6 [1000,1100] at 900 (host wait 550)
std::string StreamReport(const std::string& name) {
  return stats::test::MakeReport(
      name, {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"},
      KernelRows({{100, 200, 0, 7, 1},
                  {300, 400, 0, 7, 2},
                  {500, 600, 0, 7, 3},
                  {700, 800, 0, 7, 4},
                  {350, 450, 0, 8, 5},
                  {1000, 1100, 0, 8, 6}}) +
          WithIds("INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000');"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
                  " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
                  " (50, 55, 1, $T1, 1, 2, 0), (250, 255, 1, $T1, 2, 2, 0),"
                  " (280, 285, 1, $T1, 3, 2, 0), (290, 295, 1, $T1, 4, 2, 0),"
                  " (260, 265, 1, $T1, 5, 2, 0), (900, 905, 1, $T1, 6, 2, 0);"));
}

TEST_CASE("idle_class splits stream idle time into host wait and dependency wait and other",
          "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(StreamReport("idle_class"), "idle_class");
  CHECK(output.columns == Row{"PID", "Device ID", "Stream ID", "Ops", "Busy Time (ns)",
                              "Idle Time (ns)", "Host Wait (ns)", "Dependency Wait (ns)",
                              "Other Wait (ns)", "Host Wait (%)"});
  CHECK(output.rows == TextRows{{"100", "0", "8", "2", "200", "550", "550", "0", "0", "100.0"},
                                {"100", "0", "7", "4", "400", "300", "100", "100", "100", "33.3"}});
  CHECK(RunRuleOn(StreamReport("idle_class_rows"), "idle_class:rows=1").rows.size() == 1);
}

TEST_CASE("gap_cause names what the launching thread did during each gap", "[analyze][rules]") {
  const std::string report = GapCauseReport("gap_cause");
  const RuleOutput output = RunRuleOn(report, "gap_cause:gap=1");
  CHECK(output.columns == Row{"Row#", "Duration (ns)", "Start (ns)", "PID", "Device ID", "TID",
                              "Cause", "Call", "Call Time (ns)", "NVTX Range"});
  CHECK(output.rows ==
        TextRows{{"1", "9000", "11000", "100", "0", "1", "CUDA synchronization",
                  "cudaStreamSynchronize", "7500", ":step"},
                 {"2", "9000", "21000", "100", "0", "1", "host code", "", "", ""},
                 {"3", "9000", "31000", "100", "0", "", "nothing traced", "", "", ""},
                 {"4", "8000", "2000", "100", "0", "1", "OS runtime call", "pthread_cond_wait",
                  "7800", ":data_wait"},
                 {"5", "5000", "40200", "100", "0", "1", "host code", "", "", ""}});
  CHECK(RunRuleOn(report, "gap_cause:gap=1:rows=2").rows.size() == 2);
  CHECK(RunRuleOn(report, "gap_cause:gap=8").rows.size() == 3);  // longer than 8 us: the 9 us ones
  // No steady state here, so the default threshold is 100 us: no gap is that long.
  CHECK(RunRuleOn(report, "gap_cause").rows.empty());
}

TEST_CASE("gap_cause_sum adds the idle time up by cause", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(GapCauseReport("gap_cause_sum"), "gap_cause_sum:gap=1");
  CHECK(output.columns == Row{"Idle Time (ns)", "Idle (%)", "Gaps", "Cause", "Call", "NVTX Range"});
  CHECK(output.rows ==
        TextRows{{"14000", "35.0", "2", "host code", "", ""},
                 {"9000", "22.5", "1", "CUDA synchronization", "cudaStreamSynchronize", ":step"},
                 {"9000", "22.5", "1", "nothing traced", "", ""},
                 {"8000", "20.0", "1", "OS runtime call", "pthread_cond_wait", ":data_wait"}});
}

TEST_CASE("the default gap threshold is 5% of the median steady-state step", "[analyze][rules]") {
  // Three :step ranges of 2000, 4000 and 4000 ns: after one warm-up step the median is 4000, so
  // the threshold is 200 ns. Steady window [2000,10000]: kernels [2100,2200] [2500,2600]
  // [2750,2800] leave gaps of 300 and 150 ns. No launching calls: nothing traced, no thread.
  const std::string report = stats::test::MakeReport(
      "gap_threshold", {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"},
      KernelRows({{2100, 2200, 0, 7, 1}, {2500, 2600, 0, 7, 2}, {2750, 2800, 0, 7, 3}}) +
          WithIds("INSERT INTO StringIds VALUES (1, 'kern');"
                  "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                  " VALUES (0, 2000, 59, 'step', $T1, 0), (2000, 6000, 59, 'step', $T1, 0),"
                  " (6000, 10000, 59, 'step', $T1, 0);"));
  CHECK(RunRuleOn(report, "gap_cause").rows ==
        TextRows{{"1", "300", "2200", "100", "0", "", "nothing traced", "", "", ""}});
}

}  // namespace
}  // namespace prof::analyze::test
