// gpu_metrics_sum on a hand-made report with known metric values (gpu_metrics_fixture.h).
#include <catch2/catch.hpp>

#include "tests/stats/gpu_metrics_fixture.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

const std::vector<std::string> kColumns = {
    "Window", "Start (ns)", "Duration (ns)", "GPU", "Metric", "Samples", "Avg",
    "Med",    "P5",         "P95",           "Max"};

TEST_CASE("gpu_metrics_sum summarizes each GPU and metric over the run and the steady state",
          "[stats][gpu_metrics]") {
  const ResultTable table = RunReport(MakeGpuMetricsReport("gpu_metrics_sum"), "gpu_metrics_sum");
  CHECK(table.columns == kColumns);
  const std::string steady = "Steady state (:step 2-4 of 4)";
  CHECK(Texts(table) == TextRows{
                            {"Whole run", "0", "1900000000", "0", "SM Issue [Throughput %]", "20",
                             "25.0", "25.0", "10", "40", "40"},
                            {"Whole run", "0", "1900000000", "0", "SMs Active [Throughput %]", "20",
                             "50.0", "50.0", "20", "80", "80"},
                            {"Whole run", "0", "1900000000", "1", "SM Issue [Throughput %]", "20",
                             "15.0", "15.0", "15", "15", "15"},
                            {"Whole run", "0", "1900000000", "1", "SMs Active [Throughput %]", "20",
                             "25.0", "25.0", "25", "25", "25"},
                            {steady, "500000000", "1500000000", "0", "SM Issue [Throughput %]",
                             "15", "30.0", "40.0", "10", "40", "40"},
                            {steady, "500000000", "1500000000", "0", "SMs Active [Throughput %]",
                             "15", "60.0", "80.0", "20", "80", "80"},
                            {steady, "500000000", "1500000000", "1", "SM Issue [Throughput %]",
                             "15", "15.0", "15.0", "15", "15", "15"},
                            {steady, "500000000", "1500000000", "1", "SMs Active [Throughput %]",
                             "15", "25.0", "25.0", "25", "25", "25"},
                        });
}

TEST_CASE("gpu_metrics_sum with nvtx gives each instance of the range", "[stats][gpu_metrics]") {
  const ResultTable table =
      RunReport(MakeGpuMetricsReport("gpu_metrics_nvtx"), "gpu_metrics_sum", {"nvtx=step"});
  CHECK(table.columns == kColumns);
  TextRows sm_active;
  for (const auto& row : Texts(table)) {
    if (row[3] == "0" && row[4] == "SMs Active [Throughput %]") sm_active.push_back(row);
  }
  CHECK(table.rows.size() == 16);  // 4 instances, 2 GPUs, 2 metrics
  CHECK(sm_active == TextRows{
                         {":step", "0", "500000000", "0", "SMs Active [Throughput %]", "5", "20.0",
                          "20.0", "20", "20", "20"},
                         {":step", "500000000", "500000000", "0", "SMs Active [Throughput %]", "5",
                          "20.0", "20.0", "20", "20", "20"},
                         {":step", "1000000000", "500000000", "0", "SMs Active [Throughput %]", "5",
                          "80.0", "80.0", "80", "80", "80"},
                         {":step", "1500000000", "500000000", "0", "SMs Active [Throughput %]", "5",
                          "80.0", "80.0", "80", "80", "80"},
                     });
}

TEST_CASE("gpu_metrics_sum takes the steady state's step and warmup", "[stats][gpu_metrics]") {
  const ResultTable table = RunReport(MakeGpuMetricsReport("gpu_metrics_warmup"), "gpu_metrics_sum",
                                      {"step=step", "warmup=2"});
  const TextRows rows = Texts(table);
  REQUIRE(rows.size() == 8);
  CHECK(rows[5] == std::vector<std::string>{"Steady state (:step 3-4 of 4)", "1000000000",
                                            "1000000000", "0", "SMs Active [Throughput %]", "10",
                                            "80.0", "80.0", "80", "80", "80"});
}

TEST_CASE("gpu_metrics_sum without a steady state gives the whole run only",
          "[stats][gpu_metrics]") {
  const std::string path = MakeReport(
      "gpu_metrics_plain", {"GPU_METRICS", "TARGET_INFO_GPU_METRICS"},
      "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (2, 2, 'GPU 2', 9, 'DRAM Read Bandwidth "
      "[Throughput %]');"
      "INSERT INTO GPU_METRICS VALUES (1, 10, 2, 9, 30), (2, 20, 2, 9, 50), (3, 30, 2, 9, 70),"
      " (4, 40, 2, 9, 90);");
  CHECK(Texts(RunReport(path, "gpu_metrics_sum")) ==
        TextRows{{"Whole run", "10", "30", "2", "DRAM Read Bandwidth [Throughput %]", "4", "60.0",
                  "60.0", "30", "90", "90"}});
}

}  // namespace
}  // namespace prof::stats::test
