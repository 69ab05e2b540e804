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

TEST_CASE("diff subtracts the time a thread waited from its ranges and calls", "[diff]") {
  ItemOptions options;
  options.range = "step";
  const std::string path =
      ReportBuilder()
          // 1000 ns with a 300 ns wait call, a 100 ns read (work, not a wait), a 50 ns sleep
          // and 40 ns preempted inside
          .Range("step", 0, 1000)
          .OsrtCall("pthread_cond_wait", 100, 300)
          .OsrtCall("read", 500, 100)
          .OffCpu(520, 40, /*preempted=*/true)
          .OsrtCall("nanosleep", 900, 50)
          // 2000 ns without waits of its own thread: the loader's wait is on another thread, and
          // so is the preemption; blocked outside a wait call is the range's own time (a page
          // fault, a read)
          .Range("step", 2000, 2000)
          .OsrtCall("pthread_cond_wait", 2100, 1000, /*tid=*/2)
          .OffCpu(2200, 500, /*preempted=*/true, /*tid=*/2)
          .OffCpu(3000, 100, /*preempted=*/false)
          // 600 ns whose thread waits 500 ns, right before and after it: not inside
          .Range("step", 5000, 600)
          .OsrtCall("poll", 4800, 200)
          .OsrtCall("poll", 5600, 300)
          // a start/end range's thread may do other work meanwhile: its waits are not its own
          .StartEndRange("transfer", 7000, 1000)
          .OsrtCall("epoll_wait", 7100, 800)
          .Write("items_waits");
  const ReportItems items = Load(path, options);
  const ItemStats& nvtx = items.at({ItemKind::kNvtx, ":step"});
  CHECK(nvtx.total_ns == 3600);
  CHECK(nvtx.excluding_waits_ns == 3600.0 - 390);
  // Per instance 610, 2000 and 600 ns outside waits: the median is 610.
  const ItemStats& range = items.at({ItemKind::kRange, "step"});
  CHECK(range.median_ns == 1000.0);
  CHECK(range.excluding_waits_ns == 610.0);
  CHECK(items.at({ItemKind::kNvtx, ":transfer"}).excluding_waits_ns == 1000.0);
  // A call less the time it was preempted; a wait call is all waiting.
  CHECK(items.at({ItemKind::kOsrt, "read"}).excluding_waits_ns == 60.0);
  CHECK(items.at({ItemKind::kOsrt, "poll"}).excluding_waits_ns == 0.0);
  // Without OS runtime calls or thread switches nothing is subtracted.
  const ReportItems nvtx_only =
      Load(ReportBuilder().Range("step", 0, 1000).Write("items_no_osrt"), options);
  CHECK(nvtx_only.at({ItemKind::kNvtx, ":step"}).excluding_waits_ns == 1000.0);
  // Other kinds know nothing of waits.
  const ReportItems gpu = Load(ReportBuilder().Kernel("a", 0, 100).Write("items_gpu_waits"));
  CHECK_FALSE(gpu.at({ItemKind::kKernel, "a"}).excluding_waits_ns.has_value());
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
