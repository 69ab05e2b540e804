// The GPU metrics options of `prof profile`: values checked before anything runs, the help
// listings, and `prof profile --gpu-metrics-devices=all` on this machine (no CUDA driver): one line,
// and a complete report with the program's exit code.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli/gpu_metrics_flags.h"
#include "tests/support/test_support.h"

using prof::cli::GpuMetricsFlags;
using prof::collector::GpuMetricsOptions;
using prof::test::CommandResult;
using prof::test::QueryRows;
using prof::test::RunCommand;

namespace {

prof::Status Parse(GpuMetricsFlags flags, GpuMetricsOptions* options) {
  return prof::cli::ParseGpuMetricsFlags(flags, options);
}

}  // namespace

TEST_CASE("gpu metrics flags take nsys's values") {
  GpuMetricsOptions options;
  REQUIRE(Parse({}, &options).ok());
  CHECK(!options.any());
  CHECK(options.frequency_hz == 10000);
  REQUIRE(Parse({"all", "200000", "gh100"}, &options).ok());
  CHECK(options.devices == GpuMetricsOptions::Devices::kAll);
  CHECK(options.frequency_hz == 200000);
  CHECK(options.set_name == "gh100");
  GpuMetricsOptions listed;
  REQUIRE(Parse({"0,3", "10", ""}, &listed).ok());
  CHECK(listed.devices == GpuMetricsOptions::Devices::kListed);
  CHECK(listed.device_ids == std::vector<uint32_t>{0, 3});
  CHECK(listed.frequency_hz == 10);
  GpuMetricsOptions visible;
  REQUIRE(Parse({"cuda-visible", "", ""}, &visible).ok());
  CHECK(visible.devices == GpuMetricsOptions::Devices::kCudaVisible);
}

TEST_CASE("bad gpu metrics values are one line naming what is accepted") {
  GpuMetricsOptions options;
  CHECK(Parse({"some", "", ""}, &options).message() ==
        "--gpu-metrics-devices=some is not a device list; prof accepts "
        "--gpu-metrics-devices=none|cuda-visible|all|help or CUDA device ids (0,1)");
  CHECK(Parse({"0,", "", ""}, &options).message().rfind("--gpu-metrics-devices=0, is not", 0) == 0);
  CHECK(Parse({"none", "9", ""}, &options).message() ==
        "--gpu-metrics-frequency=9 is not a rate between 10 and 200000 samples per second");
  CHECK(!Parse({"none", "200001", ""}, &options).ok());
  CHECK(!Parse({"none", "1e4", ""}, &options).ok());
  CHECK(Parse({"none", "", "gv100"}, &options).message() ==
        "--gpu-metrics-set=gv100 is not a metric set; prof accepts "
        "--gpu-metrics-set=ga10x|ad10x|gh100|gb100|gb20x|help");
}

TEST_CASE("prof profile refuses a bad gpu metrics value before the program runs") {
  const std::string dir = prof::test::MakeTempDir("gpu_metrics_bad_value");
  const CommandResult result =
      RunCommand({prof::test::ProfBinary(), "profile", "-o", dir + "/r",
                  "--gpu-metrics-frequency=5", "/bin/sh", "-c", "touch " + dir + "/ran"});
  CHECK(result.exit_code == 1);
  CHECK(result.err ==
        "prof: error: --gpu-metrics-frequency=5 is not a rate between 10 and 200000 samples per "
        "second\n");
  CHECK(RunCommand({"test", "-e", dir + "/ran"}).exit_code != 0);
}

TEST_CASE("gpu metrics help lists the sets and the GPUs and runs nothing") {
  const CommandResult sets =
      RunCommand({prof::test::ProfBinary(), "profile", "--gpu-metrics-set=help"});
  CHECK(sets.exit_code == 0);
  CHECK(sets.out.find("  gh100: Hopper GH100 (H100, H200)\n") != std::string::npos);
  CHECK(sets.out.find("      Tensor Active [Throughput %]\n") != std::string::npos);
  const CommandResult devices =
      RunCommand({prof::test::ProfBinary(), "profile", "--gpu-metrics-devices=help"});
  CHECK(devices.exit_code == 0);
  // This machine has no CUDA driver.
  CHECK(devices.out.rfind("GPUs: none (", 0) == 0);
  const CommandResult help = RunCommand({prof::test::ProfBinary(), "profile", "--help"});
  CHECK(help.out.find("--gpu-metrics-devices") != std::string::npos);
  CHECK(help.out.find("--gpu-metrics-frequency") != std::string::npos);
  CHECK(help.out.find("--gpu-metrics-set") != std::string::npos);
}

TEST_CASE("gpu metrics on a machine without a GPU are one line and a complete report") {
  const std::string report = prof::test::MakeTempDir("gpu_metrics_no_gpu") + "/r.sqlite";
  const CommandResult result =
      RunCommand({prof::test::ProfBinary(), "profile", "-t", "osrt", "-o", report,
                  "--gpu-metrics-devices=all", "/bin/sh", "-c", "sleep 0.1; exit 3"});
  INFO(result.err);
  CHECK(result.exit_code == 3);
  const std::string err = prof::test::WithoutProgressNotes(result.err);
  const std::string written = "prof: report written to " + report + "\n";
  CHECK((err == "prof: warning: GPU metrics are not collected: this machine has no CUDA driver "
                "(libcuda.so.1 cannot be loaded)\n" +
                    written ||
         err == "prof: warning: GPU metrics are not collected: this prof was built without "
                "CUPTI's headers\n" +
                    written));
  CHECK(QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'") ==
        std::vector<std::vector<std::string>>{{"3"}});
  CHECK(!QueryRows(report, "SELECT 1 FROM OSRT_API LIMIT 1").empty());
}
