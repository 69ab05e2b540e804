// `--type jsonl`: one JSON object per line, parsed by Python's json module; the same tracks,
// counts, nesting and flows as the chrome export.
#include <catch2/catch.hpp>

#include "tests/export/export_test_util.h"
#include "tests/export/fixture_summaries.h"
#include "tests/stats/cuda_trace_fixture.h"
#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

TEST_CASE("jsonl export of the CUDA fixture has its tracks counts nesting and flows",
          "[export][jsonl]") {
  const std::string report = stats::test::MakeCudaTraceReport("export_jsonl_cuda");
  const std::string out = prof::test::MakeTempDir("export_jsonl_cuda_out") + "/trace.jsonl";
  Export(report, "jsonl", out);
  CHECK(SummarizeJsonTrace(out) == CudaFixtureSummary());
}

TEST_CASE("jsonl export of the NVTX fixture has one line per track and event", "[export][jsonl]") {
  const std::string report = stats::test::MakeNvtxReport("export_jsonl_nvtx");
  const std::string out = prof::test::MakeTempDir("export_jsonl_nvtx_out") + "/trace.jsonl";
  Export(report, "jsonl", out);
  CHECK(SummarizeJsonTrace(out) == NvtxFixtureSummary());
  const std::string text = stats::test::ReadFile(out);
  // 2 processes + 3 threads, 14 ranges and 1 mark.
  CHECK(std::count(text.begin(), text.end(), '\n') == 20);
  CHECK(
      text.find("{\"type\":\"event\",\"kind\":\"nvtx_start_end\",\"category\":\"nvtx\",\"pid\":100,"
                "\"tid\":2,\"start_ns\":20,\"end_ns\":120,\"name\":\"transfer\",\"args\":{}}\n") !=
      std::string::npos);
}

}  // namespace
}  // namespace prof::exporter::test
