// Every format on a real nsys export (tests/data/nsys-torch_mix): the events of each kind, and
// those of each thread, number the rows of their tables; all formats summarize alike.
#include <catch2/catch.hpp>

#include "tests/export/export_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

const std::string kReport = std::string(PROF_EXPORT_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite";

long Count(const std::string& sql) { return std::stol(prof::test::QueryRows(kReport, sql)[0][0]); }

// "count <category> <pid> <tid> <n>" lines from the report itself, one per thread of `table`.
Lines ThreadCounts(const std::string& category, const std::string& table,
                   const std::string& where = "1") {
  Lines lines;
  for (const auto& row : prof::test::QueryRows(
           kReport, "SELECT (globalTid >> 24) & 0xFFFFFF, globalTid & 0xFFFFFF, count(*) FROM " +
                        table + " WHERE " + where + " GROUP BY globalTid")) {
    lines.push_back("count " + category + " " + row[0] + " " + row[1] + " " + row[2]);
  }
  return lines;
}

Lines Sorted(Lines lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_CASE("every format of torch_mix has one event per row", "[export][torch_mix]") {
  const std::string dir = prof::test::MakeTempDir("export_torch_mix");
  Export(kReport, "chrome", dir + "/trace.json");
  Export(kReport, "jsonl", dir + "/trace.jsonl");
  Export(kReport, "perfetto", dir + "/trace.pftrace");
  const Lines chrome = SummarizeJsonTrace(dir + "/trace.json");

  CHECK(WithPrefix(chrome, "error ").empty());
  const std::map<std::string, long> counts = CountsByCategory(chrome);
  CHECK(counts.size() == 6);
  CHECK(counts.at("nvtx") == Count("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"));
  CHECK(counts.at("nvtx") == 121);
  CHECK(counts.at("osrt") == Count("SELECT count(*) FROM OSRT_API"));
  CHECK(counts.at("cuda_api") == Count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  CHECK(counts.at("cuda_kernel") == Count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  CHECK(counts.at("cuda_memcpy") == Count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
  CHECK(counts.at("cuda_memset") == Count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
  CHECK(counts.at("osrt") == 10808);
  CHECK(counts.at("cuda_api") == 2336);

  // Per thread, as the report counts them.
  for (const auto& [category, table] : std::vector<std::pair<std::string, std::string>>{
           {"nvtx", "NVTX_EVENTS"},
           {"osrt", "OSRT_API"},
           {"cuda_api", "CUPTI_ACTIVITY_KIND_RUNTIME"}}) {
    INFO(category);
    CHECK(WithPrefix(chrome, "count " + category + " ") == Sorted(ThreadCounts(category, table)));
  }
  // Every kernel, copy and memset was launched by an API call of the report: one flow each.
  CHECK(WithPrefix(chrome, "flow ").size() == 321 + 121 + 80);
  CHECK(WithPrefix(chrome, "depth ").size() == 121);
  // GPU 0 and its two streams (7 and 13).
  CHECK(WithPrefix(chrome, "track 16777216 ") ==
        Lines{"track 16777216 0 GPU 0: NVIDIA H200", "track 16777216 33554433 Stream 7 (pid 490)",
              "track 16777216 33554434 Stream 13 (pid 490)"});

  CHECK(SummarizeJsonTrace(dir + "/trace.jsonl") == chrome);
  CHECK(SummarizePerfettoFile(dir + "/trace.pftrace") == chrome);
}

}  // namespace
}  // namespace prof::exporter::test
