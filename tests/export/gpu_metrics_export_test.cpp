// GPU metrics (GPU_METRICS) as counters: one per GPU and metric on the GPU's track, in every
// format alike, each value drawn at its timestamp, the start of the period it covers.
#include <catch2/catch.hpp>

#include "export/timeline.h"
#include "tests/export/export_test_util.h"
#include "tests/export/perfetto_trace_decoder.h"
#include "tests/stats/gpu_metrics_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

TEST_CASE("every format exports a counter per GPU and metric", "[export][gpu_metrics]") {
  const std::string report = stats::test::MakeGpuMetricsReport("export_gpu_metrics");
  const std::string dir = prof::test::MakeTempDir("export_gpu_metrics_out");
  // 20 samples per series, largest value last.
  const Lines expected = {"counter 16777216 20 40 SM Issue [Throughput %]",
                          "counter 16777216 20 80 SMs Active [Throughput %]",
                          "counter 16777217 20 15 SM Issue [Throughput %]",
                          "counter 16777217 20 25 SMs Active [Throughput %]"};
  Export(report, "perfetto", dir + "/trace.pftrace");
  CHECK(WithPrefix(SummarizePerfettoFile(dir + "/trace.pftrace"), "counter") == expected);
  Export(report, "chrome", dir + "/trace.json");
  CHECK(WithPrefix(SummarizeJsonTrace(dir + "/trace.json"), "counter") == expected);
  Export(report, "jsonl", dir + "/trace.jsonl");
  CHECK(WithPrefix(SummarizeJsonTrace(dir + "/trace.jsonl"), "counter") == expected);
}

TEST_CASE("a GPU metric value is drawn at its own time", "[export][gpu_metrics][perfetto]") {
  const std::string report = stats::test::MakeGpuMetricsReport("export_gpu_metric_values");
  const std::string out = prof::test::MakeTempDir("export_gpu_metric_values_out") + "/t.pftrace";
  Export(report, "perfetto", out);
  // Samples at 0 s ... 1.9 s: 20 before 1 s, 80 from 1 s.
  Lines expected;
  for (int64_t i = 0; i < 20; ++i) {
    expected.push_back(std::to_string(i * 100'000'000) + (i < 10 ? " 20" : " 80"));
  }
  CHECK(PerfettoCounterValues(stats::test::ReadFile(out), kGpuPidBase,
                              "SMs Active [Throughput %]") == expected);
}

}  // namespace
}  // namespace prof::exporter::test
