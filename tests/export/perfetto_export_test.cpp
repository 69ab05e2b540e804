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

}  // namespace
}  // namespace prof::exporter::test
