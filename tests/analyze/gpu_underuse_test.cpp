// gpu_underuse and summary's "busy but underused" finding on a report with known GPU metrics
// (tests/stats/gpu_metrics_fixture.h): GPU 0's kernels cover 97.8 % of every step, with SMs Active
// 20 % in steps 1-2 and 80 % in steps 3-4; GPU 1 is underused too but busy only half the time.
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"
#include "tests/stats/gpu_metrics_fixture.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

// The summary row of the busy-but-underused finding; empty when there is none.
Row UnderuseFinding(const RuleOutput& output) {
  for (const Row& row : output.rows) {
    if (row.back() == "prof analyze -r gpu_underuse") return row;
  }
  return {};
}

TEST_CASE("gpu_underuse names the steady-state steps a GPU was busy but underused in",
          "[analyze][rules][gpu_metrics]") {
  const RuleOutput output =
      RunRuleOn(stats::test::MakeGpuMetricsReport("gpu_underuse"), "gpu_underuse");
  CHECK(output.columns == Row{"Window", "Start (ns)", "Duration (ns)", "Device ID",
                              "Kernel Busy (%)", "SMs Active (%)", "SM Issue (%)",
                              "Tensor Active (%)", "Top Kernels"});
  // Step 1 is the warm-up; steps 3 and 4 keep SMs 80 % active; GPU 1 is busy 50 % of each step.
  CHECK(output.rows == TextRows{{":step", "500000000", "500000000", "0", "97.8", "20.0", "10.0", "",
                                 "gemm_small (469.000 ms); relu (20.000 ms)"}});
  CHECK(output.window_note.rfind("Steady state: NVTX ranges :step 2 to 4 of 4", 0) == 0);
}

TEST_CASE("gpu_underuse takes its thresholds and warmup", "[analyze][rules][gpu_metrics]") {
  const std::string report = stats::test::MakeGpuMetricsReport("gpu_underuse_options");
  CHECK(RunRuleOn(report, "gpu_underuse:warmup=0").rows.size() == 2);
  CHECK(RunRuleOn(report, "gpu_underuse:sm=19").rows.empty());
  // Busy at least 50 %: GPU 1 (SMs Active 25 %) counts in each steady step, after GPU 0's.
  const RuleOutput half = RunRuleOn(report, "gpu_underuse:busy=50");
  REQUIRE(half.rows.size() == 4);
  CHECK(half.rows[0][3] == "0");
  CHECK(half.rows[1] == Row{":step", "500000000", "500000000", "1", "50.0", "25.0", "15.0", "",
                            "copy_kernel (250.000 ms)"});
}

TEST_CASE("summary names a GPU busy but underused with its kernels",
          "[analyze][rules][gpu_metrics]") {
  const RuleOutput output =
      RunRuleOn(stats::test::MakeGpuMetricsReport("summary_underuse"), "summary");
  // 489 ms of kernels with 80 % of the SMs idle: up to 391.2 ms, 130.4 ms per steady step, 26.3 %
  // of the 1490 ms from the window's first GPU operation to its last.
  CHECK(UnderuseFinding(output) ==
        Row{UnderuseFinding(output).front(), "391200000", "130400000.0", "26.3",
            "GPU 0 was busy but underused in 1 of 3 :step instances: kernels ran 97.8% of the time"
            " but SMs Active averaged 20.0%. Top kernels: gemm_small (469.000 ms); relu (20.000"
            " ms).",
            "Give each kernel more parallel work: larger batches, fused or compiled kernels"
            " (torch.compile); look at the top kernel's occupancy in Nsight Compute; run"
            " independent work concurrently (streams, CUDA graphs).",
            "prof analyze -r gpu_underuse"});
}

TEST_CASE("gpu_underuse is skipped without GPU metrics", "[analyze][rules][gpu_metrics]") {
  const std::string report = stats::test::MakeReport(
      "gpu_underuse_none", {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"},
      KernelRows({{1000, 2000, 0, 7, 1}}));
  const RuleOutput output = RunRuleOn(report, "gpu_underuse");
  REQUIRE(output.skip_note.has_value());
  CHECK(output.skip_note->find("does not contain GPU metrics") != std::string::npos);
  CHECK(UnderuseFinding(RunRuleOn(report, "summary")).empty());
}

}  // namespace
}  // namespace prof::analyze::test
