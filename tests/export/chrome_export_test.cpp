// `--type chrome` on hand-made reports: the Trace Event Format JSON parses (Python's json module),
// every event has its fields, and tracks, counts, nesting and flows are the fixtures' own.
#include <catch2/catch.hpp>

#include "tests/export/export_test_util.h"
#include "tests/export/fixture_summaries.h"
#include "tests/stats/cuda_trace_fixture.h"
#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

TEST_CASE("chrome export of the CUDA fixture has its tracks counts nesting and flows",
          "[export][chrome]") {
  const std::string report = stats::test::MakeCudaTraceReport("export_chrome_cuda");
  const std::string out = prof::test::MakeTempDir("export_chrome_cuda_out") + "/trace.json";
  Export(report, "chrome", out);
  CHECK(SummarizeJsonTrace(out) == CudaFixtureSummary());
}

TEST_CASE("chrome export of the NVTX fixture nests push/pop ranges", "[export][chrome]") {
  const std::string report = stats::test::MakeNvtxReport("export_chrome_nvtx");
  const std::string out = prof::test::MakeTempDir("export_chrome_nvtx_out") + "/trace.json";
  Export(report, "chrome", out);
  CHECK(SummarizeJsonTrace(out) == NvtxFixtureSummary());
  // A range of a named domain, its time in us with ns digits, its domain as an arg.
  const std::string json = stats::test::ReadFile(out);
  CHECK(json.find(R"({"ph":"X","cat":"nvtx","name":"load","pid":100,"tid":1,"ts":0.150,)"
                  R"("dur":0.100,"args":{"domain":"Lib"}})") != std::string::npos);
  CHECK(json.find(R"({"ph":"i","cat":"nvtx","name":"mark","pid":100,"tid":1,"ts":0.050,)"
                  R"("s":"t","args":{}})") != std::string::npos);
}

TEST_CASE("chrome export gzips when the output ends in .gz", "[export][chrome]") {
  const std::string report = stats::test::MakeCudaTraceReport("export_chrome_gz");
  const std::string out = prof::test::MakeTempDir("export_chrome_gz_out") + "/trace.json.gz";
  Export(report, "chrome", out);
  const std::string bytes = stats::test::ReadFile(out);
  REQUIRE(bytes.size() > 2);
  CHECK(static_cast<unsigned char>(bytes[0]) == 0x1F);
  CHECK(SummarizeJsonTrace(out) == CudaFixtureSummary());
}

TEST_CASE("chrome export writes NVTX colours categories and names that are not UTF-8",
          "[export][chrome]") {
  const std::string report = stats::test::MakeReport(
      "export_chrome_bytes", {"NVTX_EVENTS"},
      stats::test::ReplaceAll(
          "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, category, color)"
          " VALUES (0, NULL, 33, 'io', $T1, 3, NULL),"
          " (10, 20, 59, CAST(X'6261FF64' AS TEXT), $T1, 3, 4278255360),"
          " (30, 40, 59, 'q\"uote\\', $T1, NULL, NULL);",
          {{"$T1", stats::test::Tid(7, 8)}}));
  const std::string out = prof::test::MakeTempDir("export_chrome_bytes_out") + "/trace.json";
  Export(report, "chrome", out);
  CHECK(SummarizeJsonTrace(out) == Lines{"count nvtx 7 8 2",
                                         "depth 7 8 ba\xEF\xBF\xBD"
                                         "d 0",
                                         "depth 7 8 q\"uote\\ 0"});
  CHECK(stats::test::ReadFile(out).find(R"("args":{"category":"io","color":"#00ff00"})") !=
        std::string::npos);
}

}  // namespace
}  // namespace prof::exporter::test

namespace prof::exporter::test {
namespace {

TEST_CASE("every format exports graph launches and OS runtime calls alike", "[export]") {
  const std::string report = stats::test::MakeReport(
      "export_graph_osrt",
      {"OSRT_API", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"},
      stats::test::ReplaceAll(
          "INSERT INTO StringIds (id, value) VALUES (1, 'cudaGraphLaunch_v10000'), (2, 'read');"
          "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue,"
          " nestingLevel, callchainId) VALUES (5, 50, 27, $T1, 2, -1, 0, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
          " (start, end, eventClass, globalTid, correlationId, nameId, returnValue)"
          " VALUES (60, 70, 0, $T1, 9, 1, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start, end, deviceId, contextId,"
          " streamId, correlationId, globalPid, graphId, graphExecId)"
          " VALUES (100, 400, 1, 1, 3, 9, $G1, 4, 5);",
          {{"$T1", stats::test::Tid(100, 1)}, {"$G1", stats::test::Tid(100, 0)}}));
  const Lines expected = {"count cuda_api 100 1 1", "count cuda_graph 16777217 33554433 1",
                          "count osrt 100 1 1",     "flow cudaGraphLaunch_v10000 -> [CUDA graph 4]",
                          "track 16777217 0 GPU 1", "track 16777217 33554433 Stream 3 (pid 100)"};
  const std::string dir = prof::test::MakeTempDir("export_graph_osrt_out");
  Export(report, "chrome", dir + "/trace.json");
  CHECK(SummarizeJsonTrace(dir + "/trace.json") == expected);
  Export(report, "jsonl", dir + "/trace.jsonl");
  CHECK(SummarizeJsonTrace(dir + "/trace.jsonl") == expected);
  Export(report, "perfetto", dir + "/trace.pftrace");
  CHECK(SummarizePerfettoFile(dir + "/trace.pftrace") == expected);
  CHECK(stats::test::ReadFile(dir + "/trace.jsonl")
            .find(R"("name":"read","args":{"returnValue":-1}})") != std::string::npos);
}

// Allocations minus frees of device memory on GPU 0: 4 MiB, 6 MiB, 2 MiB, 10 MiB, 2 MiB; the pinned
// host allocation is not device memory, and GPU 1 has no operations but still gets its track.
TEST_CASE("every format exports the device memory counter of each GPU alike", "[export]") {
  const std::string report = stats::test::MakeReport(
      "export_gpu_memory", {"CUDA_GPU_MEMORY_USAGE_EVENTS"},
      stats::test::ReplaceAll(
          "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId,"
          " address, pc, bytes, memKind, memoryOperationType) VALUES"
          " (100, $G1, 0, 1, 4096, 0, 4194304, 2, 0), (200, $G1, 0, 1, 8192, 0, 2097152, 2, 0),"
          " (300, $G1, 0, 1, 4096, 0, 4194304, 2, 1), (400, $G1, 0, 1, 4096, 0, 8388608, 2, 0),"
          " (450, $G1, 0, 1, 36864, 0, 1048576, 1, 0), (600, $G1, 0, 1, 4096, 0, 8388608, 2, 1),"
          " (150, $G1, 1, 2, 20480, 0, 1024, 2, 0);",
          {{"$G1", stats::test::Tid(100, 0)}}));
  const Lines expected = {"counter 16777216 5 10485760 Device memory allocated (bytes)",
                          "counter 16777217 1 1024 Device memory allocated (bytes)",
                          "track 16777216 0 GPU 0", "track 16777217 0 GPU 1"};
  const std::string dir = prof::test::MakeTempDir("export_gpu_memory_out");
  Export(report, "chrome", dir + "/trace.json");
  CHECK(SummarizeJsonTrace(dir + "/trace.json") == expected);
  Export(report, "jsonl", dir + "/trace.jsonl");
  CHECK(SummarizeJsonTrace(dir + "/trace.jsonl") == expected);
  Export(report, "perfetto", dir + "/trace.pftrace");
  CHECK(SummarizePerfettoFile(dir + "/trace.pftrace") == expected);
  CHECK(stats::test::ReadFile(dir + "/trace.json")
            .find(R"j({"ph":"C","cat":"counter","name":"Device memory allocated (bytes)",)j"
                  R"j("pid":16777216,"tid":0,"ts":0.400,"args":{"value":10485760}})j") !=
        std::string::npos);
}

}  // namespace
}  // namespace prof::exporter::test
