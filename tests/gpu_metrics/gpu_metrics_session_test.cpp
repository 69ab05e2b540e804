// `prof profile` sessions (collector::RunProfileSession, the program run for real) with GPU metrics
// behind recorded PM sampling results: the exact GPU_METRICS, TARGET_INFO_GPU_METRICS and
// TARGET_INFO_GPU rows, the lost samples in PROF_STATS, the run intact when permission is
// refused, and --gpu-metrics-devices=none loading nothing.
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "collector/gpu_metrics/metric_sets.h"
#include "collector/profile_session.h"
#include "tests/gpu_metrics/recorded_pm_sampling.h"
#include "tests/support/test_support.h"

using prof::collector::GpuMetricsOptions;
using prof::collector::PmSample;
using prof::test::QueryRows;
using prof::test::RecordedCalls;
using prof::test::RecordedDevice;
using prof::test::RecordedFactory;
using Rows = std::vector<std::vector<std::string>>;

namespace {

constexpr uint64_t kIntervalNs = 100'000;
// Sample times after sampling started: well inside the program's 0.3 s, past the report's opening.
constexpr uint64_t kFirstSampleNs = 100'000'000;

RecordedDevice H200WithTwoSamples() {
  RecordedDevice gpu;
  gpu.device.id = 0;
  gpu.device.name = "NVIDIA H200";
  gpu.device.chip = "GH100";
  gpu.device.description.device_id = 0;
  gpu.device.description.multiprocessors = 132;
  gpu.device.description.compute_major = 9;
  const size_t metrics = prof::collector::FindMetricSet("gh100")->metrics.size();
  for (uint64_t index : {0, 1, 3}) {  // the third after a gap: one sample lost
    PmSample sample;
    sample.start_timestamp = kFirstSampleNs + index * kIntervalNs;
    sample.end_timestamp = sample.start_timestamp + kIntervalNs;
    sample.values.assign(metrics, 0.0);
    // Values follow the counters asked for: the set less its derived Unallocated Warps (7).
    sample.values[3] = 10.0 * static_cast<double>(index + 1);  // SMs Active
    sample.values[6] = 4.0 * static_cast<double>(index + 1);   // Compute Warps in Flight
    sample.values[7] = 82.4;                                   // DRAM Read Bandwidth
    gpu.batches.push_back({sample});
  }
  return gpu;
}

struct Session {
  prof::Status status = prof::Status::Ok();
  prof::collector::ProfileResult result;
  std::string report;
  std::string console;  // what prof said
};

Session Profile(const std::string& name, GpuMetricsOptions gpu_metrics,
                prof::collector::PmSamplingApiFactory api) {
  Session session;
  session.report = prof::test::MakeTempDir(name) + "/report.sqlite";
  prof::collector::ProfileOptions options;
  options.command = {"/bin/sh", "-c", "sleep 0.3; exit 3"};
  options.command_line = "sh -c 'sleep 0.3; exit 3'";
  options.trace_flags = 0;
  options.library_dir = PROF_LIBRARY_DIR;
  options.gpu_metrics = gpu_metrics;
  options.gpu_metrics_api = std::move(api);
  const std::string path = session.report;
  options.claim_report_name = [path](pid_t, uint32_t, std::string* report_path,
                                     std::unique_ptr<prof::storage::ReportNameClaim>* claim) {
    *report_path = path;
    claim->reset();
    return prof::Status::Ok();
  };
  std::ostringstream console;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(console);
  sink->set_pattern("%v");
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", sink));
  session.status = prof::collector::RunProfileSession(options, &session.result);
  spdlog::set_default_logger(previous);
  session.console = console.str();
  return session;
}

GpuMetricsOptions All() {
  GpuMetricsOptions options;
  options.devices = GpuMetricsOptions::Devices::kAll;
  return options;
}

}  // namespace

TEST_CASE("recorded GPU metrics become nsys's rows in the report of a complete run") {
  RecordedCalls calls;
  const Session session =
      Profile("gpu_metrics_rows", All(), RecordedFactory({H200WithTwoSamples()}, &calls));
  INFO(session.console);
  REQUIRE(session.status.ok());
  CHECK(session.result.exit_code == 3);
  const Rows info = QueryRows(session.report,
                              "SELECT typeId, sourceId, typeName, metricId, metricName FROM "
                              "TARGET_INFO_GPU_METRICS ORDER BY metricId");
  REQUIRE(info.size() == 12);
  CHECK(info[0] == std::vector<std::string>{"281479271677952", "281479271677952", "GPU 0 gh100",
                                            "0", "GPC Clock Frequency [MHz]"});
  CHECK(info[3] == std::vector<std::string>{"281479271677952", "281479271677952", "GPU 0 gh100",
                                            "3", "SMs Active [Throughput %]"});
  CHECK(info[8][4] == "DRAM Read Bandwidth [Throughput %]");
  CHECK(QueryRows(session.report, "SELECT COUNT(*) FROM GPU_METRICS") == Rows{{"36"}});
  const Rows sms = QueryRows(session.report,
                             "SELECT value, timestamp, rawTimestamp - timestamp FROM GPU_METRICS "
                             "WHERE metricId = 3 ORDER BY timestamp");
  REQUIRE(sms.size() == 3);
  CHECK(sms[0][0] == "10");
  CHECK(sms[1][0] == "20");
  CHECK(sms[2][0] == "40");
  // The sample clock maps onto the session's clock exactly (the recorded one runs at its rate).
  CHECK(std::stoll(sms[1][1]) - std::stoll(sms[0][1]) == 100000);
  CHECK(std::stoll(sms[2][1]) - std::stoll(sms[0][1]) == 300000);
  CHECK(sms[0][2] == sms[1][2]);
  CHECK(sms[0][2] == sms[2][2]);
  const int64_t first = std::stoll(sms[0][1]);
  CHECK(first > 0);
  CHECK(first < std::stoll(QueryRows(session.report,
                                     "SELECT value FROM PROF_SESSION WHERE name = 'duration_ns'")
                               .at(0)
                               .at(0)));
  CHECK(QueryRows(session.report, "SELECT DISTINCT value FROM GPU_METRICS WHERE metricId = 8") ==
        Rows{{"82"}});
  // Unallocated Warps in Active SMs: SMs Active less Compute Warps, under its own id.
  CHECK(info[7][4] == "Unallocated Warps in Active SMs [Throughput %]");
  CHECK(QueryRows(session.report,
                  "SELECT value FROM GPU_METRICS WHERE metricId = 7 ORDER BY timestamp") ==
        Rows{{"6"}, {"12"}, {"24"}});
  CHECK(QueryRows(session.report, "SELECT id, name, smCount, computeMajor FROM TARGET_INFO_GPU") ==
        Rows{{"0", "NVIDIA H200", "132", "9"}});
  CHECK(QueryRows(session.report,
                  "SELECT value FROM PROF_STATS WHERE name = 'gpu_metric_samples_lost'") ==
        Rows{{"1"}});
  CHECK(session.console.find("warning") == std::string::npos);
}

TEST_CASE("refused permission is one line and the run is traced as usual") {
  RecordedCalls calls;
  RecordedDevice gpu = H200WithTwoSamples();
  gpu.failure = prof::collector::PmFailure::kNoPermission;
  const Session session = Profile("gpu_metrics_permission", All(), RecordedFactory({gpu}, &calls));
  INFO(session.console);
  REQUIRE(session.status.ok());
  CHECK(session.result.exit_code == 3);
  size_t lines = 0;
  for (size_t at = 0; (at = session.console.find("GPU metrics", at)) != std::string::npos; ++at) {
    ++lines;
  }
  CHECK(lines == 1);
  CHECK(session.console.find("warning: GPU metrics are not collected on GPU 0: the NVIDIA driver "
                             "lets only administrators read GPU performance counters "
                             "(NVreg_RestrictProfilingToAdminUsers=1)") != std::string::npos);
  CHECK(QueryRows(session.report, "SELECT name FROM sqlite_master WHERE name LIKE '%GPU_METRICS'")
            .empty());
  CHECK(QueryRows(session.report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'") ==
        Rows{{"3"}});
  CHECK(!QueryRows(session.report, "SELECT 1 FROM PROCESSES").empty());
}

TEST_CASE("gpu metrics devices none loads nothing and starts no thread") {
  RecordedCalls calls;
  const Session session = Profile("gpu_metrics_none", GpuMetricsOptions{},
                                  RecordedFactory({H200WithTwoSamples()}, &calls));
  REQUIRE(session.status.ok());
  CHECK(session.result.exit_code == 3);
  // The factory is where the libraries would be loaded and the sampler thread made.
  CHECK(calls.loads == 0);
  CHECK(calls.starts == 0);
  CHECK(QueryRows(session.report, "SELECT name FROM sqlite_master WHERE name LIKE '%GPU_METRICS'")
            .empty());
}
