// GPU metrics from recorded PM sampling results through the real sampler thread, clock mapping and
// device selection (collector/gpu_metrics/): values, metric ids, converted times, lost samples and
// the lines that say what is not sampled.
#include "collector/gpu_metrics/gpu_metrics_sampler.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collector/gpu_metrics/metric_sets.h"
#include "tests/gpu_metrics/recorded_pm_sampling.h"

using prof::collector::GpuMetricsOptions;
using prof::collector::GpuMetricValue;
using prof::collector::PmFailure;
using prof::collector::PmSample;
using prof::test::RecordedCalls;
using prof::test::RecordedDevice;
using prof::test::RecordedFactory;
using prof::test::RecordedPmSampling;

namespace {

constexpr uint64_t kIntervalNs = 100'000;  // 10 kHz

RecordedDevice H200(uint32_t id) {
  RecordedDevice recorded;
  recorded.device.id = id;
  recorded.device.name = "NVIDIA H200";
  recorded.device.chip = "GH100";
  recorded.device.description.device_id = id;
  return recorded;
}

// A sample `index` intervals after the start with `values` for the first metrics of the set
// (the rest 0).
PmSample Sample(uint64_t index, std::vector<double> values) {
  PmSample sample;
  sample.start_timestamp = index * kIntervalNs;
  sample.end_timestamp = (index + 1) * kIntervalNs;
  sample.values = std::move(values);
  sample.values.resize(prof::collector::FindMetricSet("gh100")->metrics.size(), 0.0);
  return sample;
}

GpuMetricsOptions AllDevices() {
  GpuMetricsOptions options;
  options.devices = GpuMetricsOptions::Devices::kAll;
  return options;
}

std::vector<GpuMetricValue> SampleAll(std::unique_ptr<prof::collector::GpuMetricsSampler> sampler) {
  REQUIRE(sampler != nullptr);
  sampler->Stop();
  std::vector<GpuMetricValue> values;
  sampler->TakeReady(&values);
  return values;
}

}  // namespace

TEST_CASE("recorded samples become one value per metric with the sample time on CLOCK_MONOTONIC") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  gpu.batches = {{Sample(0, {1410e6, 1755e6, 99.6, 87.2})}, {Sample(1, {1980e6, 1755e6, 3.4})}};
  std::vector<std::string> notes;
  auto sampler =
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes);
  CHECK(notes.empty());
  const std::vector<GpuMetricValue> values = SampleAll(std::move(sampler));
  const size_t metrics = prof::collector::FindMetricSet("gh100")->metrics.size();
  REQUIRE(values.size() == 2 * metrics);
  // The first sample's GPC clock, GR Active and SMs Active, rounded; Hz stay Hz.
  CHECK(values[0].metric_id == 0);
  CHECK(values[0].value == 1410000000);
  CHECK(values[2].metric_id == 2);
  CHECK(values[2].value == 100);
  CHECK(values[3].value == 87);
  CHECK(values[metrics + 0].value == 1980000000);
  CHECK(values[metrics + 2].value == 3);
  for (const GpuMetricValue& value : values) {
    CHECK(value.gpu == 0);
    // The recorded clock runs kClockOffsetNs ahead of CLOCK_MONOTONIC at the same rate.
    CHECK(value.time_ns == value.raw_timestamp - RecordedPmSampling::kClockOffsetNs);
  }
  CHECK(values[metrics].raw_timestamp - values[0].raw_timestamp == kIntervalNs);
  CHECK(values[0].raw_timestamp == calls.start_clock);
}

TEST_CASE("the set's CUPTI metrics are asked for at the interval of the frequency") {
  RecordedCalls calls;
  GpuMetricsOptions options = AllDevices();
  options.frequency_hz = 200;
  std::vector<std::string> notes;
  auto sampler =
      prof::collector::StartGpuMetrics(options, RecordedFactory({H200(0)}, &calls), &notes);
  REQUIRE(sampler != nullptr);
  REQUIRE(calls.metrics.size() == 1);
  CHECK(calls.intervals_ns.at(0) == 5'000'000);
  CHECK(calls.metrics[0].at(3) == "sm__cycles_active.avg.pct_of_peak_sustained_elapsed");
  CHECK(calls.metrics[0].at(5) ==
        "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed");
}

TEST_CASE("a gap between samples counts the samples the hardware dropped") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  gpu.batches = {{Sample(0, {}), Sample(1, {})}, {Sample(5, {}), Sample(6, {})}};
  std::vector<std::string> notes;
  auto sampler =
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes);
  REQUIRE(sampler != nullptr);
  sampler->Stop();
  CHECK(sampler->lost_samples() == 3);
}

TEST_CASE("values CUPTI could not evaluate are left out") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  gpu.batches = {{Sample(0, {nan, nan, nan, 40.0})}};
  std::vector<std::string> notes;
  const std::vector<GpuMetricValue> values = SampleAll(
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes));
  REQUIRE(values.size() == prof::collector::FindMetricSet("gh100")->metrics.size() - 3);
  CHECK(values[0].metric_id == 3);
  CHECK(values[0].value == 40);
}

TEST_CASE("metrics the chip lacks are named and the others sampled under their set ids") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  // SMs Active, DRAM Read Bandwidth: positions among the counters asked for, which leave out the
  // derived Unallocated Warps (set position 7), so DRAM Read is counter 7 and metric 8.
  gpu.collected = {3, 7};
  PmSample sample;
  sample.start_timestamp = 0;
  sample.values = {55.0, 81.0};
  gpu.batches = {{sample}};
  std::vector<std::string> notes;
  const std::vector<GpuMetricValue> values = SampleAll(
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes));
  REQUIRE(values.size() == 2);
  CHECK(values[0].metric_id == 3);
  CHECK(values[0].value == 55);
  CHECK(values[1].metric_id == 8);
  CHECK(values[1].value == 81);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].rfind("GPU 0 (GH100) has no counters for GPC Clock Frequency [MHz], ", 0) == 0);
  CHECK(notes[0].find("DRAM Read") == std::string::npos);
}

TEST_CASE("Hopper's Unallocated Warps is SMs Active less Compute Warps, never below 0") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Counters: 3 SMs Active, 6 Compute Warps in Flight.
  PmSample busy = Sample(0, {0, 0, 0, 98.8, 0, 0, 80.5});
  PmSample skewed = Sample(1, {0, 0, 0, 10.0, 0, 0, 12.0});  // counters read apart: 0, not -2
  PmSample unevaluated = Sample(2, {0, 0, 0, nan, 0, 0, 3.0});
  gpu.batches = {{busy, skewed, unevaluated}};
  std::vector<std::string> notes;
  const std::vector<GpuMetricValue> values = SampleAll(
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes));
  REQUIRE(calls.metrics.size() == 1);
  CHECK(calls.metrics[0].size() == prof::collector::FindMetricSet("gh100")->metrics.size() - 1);
  std::vector<int64_t> unallocated;
  for (const GpuMetricValue& value : values) {
    if (value.metric_id == 7) unallocated.push_back(value.value);
  }
  CHECK(unallocated == std::vector<int64_t>{18, 0});
  CHECK(notes.empty());
}

TEST_CASE("a derived metric whose counters the chip lacks is named as missing") {
  RecordedCalls calls;
  RecordedDevice gpu = H200(0);
  gpu.collected = {3};  // SMs Active only: no Compute Warps to subtract
  PmSample sample;
  sample.values = {50.0};
  gpu.batches = {{sample}};
  std::vector<std::string> notes;
  const std::vector<GpuMetricValue> values = SampleAll(
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({gpu}, &calls), &notes));
  REQUIRE(values.size() == 1);
  CHECK(values[0].metric_id == 3);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("Compute Warps in Flight [Throughput %], Unallocated Warps in Active SMs") !=
        std::string::npos);
}

TEST_CASE("without permission one line names the fix and nothing samples") {
  RecordedCalls calls;
  RecordedDevice first = H200(0);
  RecordedDevice second = H200(1);
  first.failure = second.failure = PmFailure::kNoPermission;
  std::vector<std::string> notes;
  auto sampler = prof::collector::StartGpuMetrics(AllDevices(),
                                                  RecordedFactory({first, second}, &calls), &notes);
  CHECK(sampler == nullptr);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "GPU metrics are not collected on GPUs 0, 1: the NVIDIA driver lets only administrators "
        "read GPU performance counters (NVreg_RestrictProfilingToAdminUsers=1): run prof as root, "
        "or put `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in a file under "
        "/etc/modprobe.d/ and reboot");
}

TEST_CASE("a GPU another profiler holds is said and the others sample") {
  RecordedCalls calls;
  RecordedDevice busy = H200(0);
  busy.failure = PmFailure::kBusy;
  RecordedDevice free = H200(1);
  free.batches = {{Sample(0, {1.0})}};
  std::vector<std::string> notes;
  auto sampler =
      prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({busy, free}, &calls), &notes);
  REQUIRE(sampler != nullptr);
  REQUIRE(sampler->gpus().size() == 1);
  CHECK(sampler->gpus()[0].device.id == 1);
  CHECK(notes == std::vector<std::string>{
                     "GPU metrics are not collected on GPU 0: another profiler (nsys, ncu, DCGM, "
                     "a second prof) holds the GPU's performance counters"});
}

TEST_CASE("listed devices are sampled and a missing one is named") {
  RecordedCalls calls;
  GpuMetricsOptions options;
  options.devices = GpuMetricsOptions::Devices::kListed;
  options.device_ids = {1, 7};
  std::vector<std::string> notes;
  auto sampler = prof::collector::StartGpuMetrics(
      options, RecordedFactory({H200(0), H200(1)}, &calls), &notes);
  REQUIRE(sampler != nullptr);
  REQUIRE(sampler->gpus().size() == 1);
  CHECK(sampler->gpus()[0].device.id == 1);
  CHECK(notes == std::vector<std::string>{
                     "GPU metrics are not collected on GPU 7: prof's CUDA driver shows 2 "
                     "device(s); --gpu-metrics-devices=help lists them"});
}

TEST_CASE("a chip without a metric set and a set of another chip are not sampled") {
  RecordedCalls calls;
  RecordedDevice turing = H200(0);
  turing.device.chip = "TU102";
  std::vector<std::string> notes;
  CHECK(prof::collector::StartGpuMetrics(AllDevices(), RecordedFactory({turing}, &calls), &notes) ==
        nullptr);
  CHECK(notes == std::vector<std::string>{
                     "GPU metrics are not collected on GPU 0: prof has no metric set for its chip "
                     "TU102 (--gpu-metrics-set=help lists the chips prof samples)"});
  GpuMetricsOptions ada = AllDevices();
  ada.set_name = "ad10x";
  notes.clear();
  CHECK(prof::collector::StartGpuMetrics(ada, RecordedFactory({H200(0)}, &calls), &notes) ==
        nullptr);
  CHECK(notes == std::vector<std::string>{"GPU metrics are not collected on GPU 0: "
                                          "--gpu-metrics-set=ad10x is not for its chip GH100"});
  CHECK(calls.starts == 0);
}

TEST_CASE("no driver is one line and no build with CUPTI is another") {
  RecordedCalls calls;
  std::vector<std::string> notes;
  CHECK(prof::collector::StartGpuMetrics(
            AllDevices(),
            RecordedFactory({}, &calls,
                            "this machine has no CUDA driver (libcuda.so.1 cannot be loaded)"),
            &notes) == nullptr);
  CHECK(notes == std::vector<std::string>{"GPU metrics are not collected: this machine has no "
                                          "CUDA driver (libcuda.so.1 cannot be loaded)"});
  notes.clear();
  CHECK(prof::collector::StartGpuMetrics(AllDevices(), nullptr, &notes) == nullptr);
  CHECK(notes == std::vector<std::string>{
                     "GPU metrics are not collected: this prof was built without CUPTI's headers"});
}
