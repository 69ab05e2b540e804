// `--type perfetto`: the protobuf trace, read back with the tests' decoder, has the same tracks,
// counts, nesting and flows as the chrome export, and is smaller.
#include <catch2/catch.hpp>

#include "tests/export/export_test_util.h"
#include "tests/export/fixture_summaries.h"
#include "tests/stats/cuda_trace_fixture.h"
#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

TEST_CASE("perfetto export of the CUDA fixture has its tracks counts nesting and flows",
          "[export][perfetto]") {
  const std::string report = stats::test::MakeCudaTraceReport("export_perfetto_cuda");
  const std::string dir = prof::test::MakeTempDir("export_perfetto_cuda_out");
  Export(report, "perfetto", dir + "/trace.pftrace");
  CHECK(SummarizePerfettoFile(dir + "/trace.pftrace") == CudaFixtureSummary());
  Export(report, "chrome", dir + "/trace.json");
  CHECK(stats::test::ReadFile(dir + "/trace.pftrace").size() * 2 <
        stats::test::ReadFile(dir + "/trace.json").size());
}

TEST_CASE("perfetto export of the NVTX fixture spreads overlapping start/end ranges",
          "[export][perfetto]") {
  const std::string report = stats::test::MakeNvtxReport("export_perfetto_nvtx");
  const std::string out = prof::test::MakeTempDir("export_perfetto_nvtx_out") + "/trace.pftrace";
  Export(report, "perfetto", out);
  // The decoder pairs BEGIN and END per track: overlapping ranges on one track would pair wrongly
  // and show up as overlaps or unmatched ends.
  CHECK(SummarizePerfettoFile(out) == NvtxFixtureSummary());
}

TEST_CASE("perfetto export puts PyTorch module backward slices on a track of their thread",
          "[export][perfetto][pytorch]") {
  // --pytorch's ranges: Net.fc's forward ran t (seq 0) and addmm (seq 1). Their backward nodes ran
  // on thread 2, each inside an engine range of its own, so the module's slice [2100, 2600] cuts
  // across both engine ranges: on the thread's own track it would not nest, so it has a child
  // track of the thread. (The decoder, like trace_summary.py for chrome's async slices, leaves
  // such slices out of the overlap count.)
  const std::string t1 = stats::test::Tid(100, 1);
  const std::string t2 = stats::test::Tid(100, 2);
  const std::string report = stats::test::MakeReport(
      "export_perfetto_module_backward", {"NVTX_EVENTS"},
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, 0, 75, 'PyTorch', " +
          t1 +
          ", 1),"
          " (0, 1000, 59, 'Net.fc (Linear)', " +
          t1 +
          ", 1),"
          " (100, 200, 59, 'aten::t, seq = 0, op_id = 1', " +
          t1 +
          ", 0),"
          " (300, 900, 59, 'aten::addmm, seq = 1, op_id = 2', " +
          t1 +
          ", 0),"
          " (2000, 2300, 59, 'engine, op_id = 3', " +
          t2 +
          ", 0),"
          " (2100, 2200, 59, 'AddmmBackward0, seq = 1, op_id = 4', " +
          t2 +
          ", 0),"
          " (2400, 2700, 59, 'engine, op_id = 5', " +
          t2 +
          ", 0),"
          " (2500, 2600, 59, 'TBackward0, seq = 0, op_id = 6', " +
          t2 + ", 0);");
  const std::string out =
      prof::test::MakeTempDir("export_perfetto_module_backward_out") + "/trace.pftrace";
  Export(report, "perfetto", out);
  const Lines summary = SummarizePerfettoFile(out);
  CHECK(WithPrefix(summary, "error ").empty());
  CHECK(WithPrefix(summary, "overlap ").empty());
  CHECK(CountsByCategory(summary)["pytorch"] == 1);
  CHECK(stats::test::ReadFile(out).find("PyTorch module backward") != std::string::npos);
}

}  // namespace
}  // namespace prof::exporter::test
