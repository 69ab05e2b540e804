// The items diff reads from one report (diff/report_items.h), on hand-made reports.
#include "diff/report_items.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/diff/diff_scenarios.h"
#include "tests/diff/report_builder.h"

namespace prof::diff {
namespace {

using test::Launch;
using test::ReportBuilder;

// "<kind> <name> <instances> <total> <median or ->", one line per item in key order.
std::vector<std::string> Lines(const ReportItems& items) {
  std::vector<std::string> lines;
  for (const auto& [key, stats] : items) {
    std::string median = "-";
    if (stats.median_ns) median = std::to_string(*stats.median_ns);
    lines.push_back(std::string(ItemKindName(key.kind)) + " " + key.name + " " +
                    std::to_string(stats.instances) + " " + std::to_string(stats.total_ns) + " " +
                    median);
  }
  return lines;
}

ReportItems Load(const std::string& path, const ItemOptions& options = {}) {
  LoadedReport report;
  const Status status = LoadReport(path, options, &report);
  INFO(status.message());
  REQUIRE(status.ok());
  return report.items;
}

TEST_CASE("diff reads every kind of item of a report", "[diff]") {
  ItemOptions options;
  options.range = "step";
  CHECK(Lines(Load(test::MakeTrainingBase("items_base"), options)) ==
        std::vector<std::string>{
            "gpu_busy device 0 13 7900 -",
            "gpu_span all devices 13 32200 -",
            "range step 4 12000 3000.000000",
            "kernel copy_kernel(float*) 1 300 300.000000",
            "kernel gemm(float*) 4 4000 1000.000000",
            "kernel relu(float*) 4 2000 500.000000",
            "memop [CUDA memcpy Host-to-Device] 4 1600 400.000000",
            "cuda_api cudaLaunchKernel 8 800 100.000000",
            "nvtx :step 4 12000 3000.000000",
            "osrt read 4 400 100.000000",
        });
}

TEST_CASE("diff counts overlapping GPU operations once per device", "[diff]") {
  const std::string path = ReportBuilder()
                               .Kernel("a", 0, 100)
                               .Kernel("b", 50, 100)  // overlaps a: busy 0..150
                               .Kernel("c", 150, 10)  // touches b's end: still one interval
                               .Memcpy(2, 200, 40)    // 200..240
                               .Kernel("d", 0, 1000, {1, 128, 1})
                               .Write("items_overlap");
  const std::vector<std::string> lines = Lines(Load(path));
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "gpu_busy device 0 4 200 -");
  CHECK(lines[1] == "gpu_busy device 1 1 1000 -");
  CHECK(lines[2] == "gpu_span all devices 5 1000 -");
}

TEST_CASE("diff keys kernels by name or by name and launch dimensions", "[diff]") {
  const std::string path = ReportBuilder()
                               .Kernel("gemm<float>(float*)", 0, 100, {8, 128, 0})
                               .Kernel("gemm<float>(float*)", 200, 300, {16, 256, 0})
                               .Kernel("gemm<float>(float*)", 600, 200, {8, 128, 0})
                               .Write("items_kernel_keys");
  ItemOptions by_launch;
  by_launch.kernel_key = "name+grid+block";
  by_launch.kernel_name = "base";
  const std::vector<std::string> lines = Lines(Load(path, by_launch));
  REQUIRE(lines.size() == 4);
  CHECK(lines[2] == "kernel gemm [grid 16,1,1 block 256,1,1] 1 300 300.000000");
  CHECK(lines[3] == "kernel gemm [grid 8,1,1 block 128,1,1] 2 300 150.000000");
  CHECK(Lines(Load(path))[2] == "kernel gemm<float>(float*) 3 600 200.000000");
}

TEST_CASE("diff reads NVTX and OS runtime items of a report without CUDA data", "[diff]") {
  ItemOptions options;
  options.range = "Lib:load";
  CHECK(Lines(Load(test::MakeHostOnly("items_host", 250), options)) ==
        std::vector<std::string>{
            "range Lib:load 4 8000 2000.000000",
            "nvtx Lib:load 4 8000 2000.000000",
            "osrt read 4 1000 250.000000",
        });
  options.range = "load";  // names the default domain's range only
  CHECK(Lines(Load(test::MakeHostOnly("items_host_default", 250), options)).size() == 2);
}

int64_t RunSpan(const std::string& path) {
  LoadedReport report;
  const Status status = LoadReport(path, {}, &report);
  INFO(status.message());
  REQUIRE(status.ok());
  return report.run_ns;
}

TEST_CASE("diff reads a report's traced span, first event to last, over every kind", "[diff]") {
  // The last step's range ends at 30000 + 3000; the first starts at 0.
  CHECK(RunSpan(test::MakeTrainingBase("span_training")) == 33000);
  // Lib:load's domain is named at 0, the last range ends at 32000, its read at 30350.
  CHECK(RunSpan(test::MakeHostOnly("span_host", 250)) == 32000);
  CHECK(RunSpan(ReportBuilder().Kernel("a", 500, 100).Memcpy(1, 1000, 50).Write("span_gpu")) ==
        550);
  CHECK(RunSpan(ReportBuilder()
                    .OsrtCall("read", 100, 20)
                    .ApiCall("cudaFree", 10, 5)
                    .Write("span_host_calls")) == 110);
  CHECK(RunSpan(ReportBuilder().Write("span_empty")) == 0);
}

TEST_CASE("diff fails with one line on a file that is not a report", "[diff]") {
  LoadedReport report;
  const Status status = LoadReport("/nonexistent/base.sqlite", {}, &report);
  CHECK_FALSE(status.ok());
  CHECK(status.message() == "report file not found: /nonexistent/base.sqlite");
}

}  // namespace
}  // namespace prof::diff
