// The registry and the embedded SQL agree, and every report file follows the documented shape.
#include "stats/report_registry.h"

#include <catch2/catch.hpp>

#include "stats/embedded_sql.h"

namespace prof::stats {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

TEST_CASE("every report has its SQL - views and a header comment", "[stats][registry]") {
  for (const ReportSpec& report : AllReports()) {
    INFO(report.name);
    const auto sql = ReportSql(report);
    REQUIRE(sql.has_value());
    CHECK(StartsWith(*sql,
                     "-- " + std::string(report.name) + ": " + std::string(report.title) + "."));
    CHECK_FALSE(report.required_tables.empty());
    CHECK_FALSE(report.data_description.empty());
    for (std::string_view view : report.views) {
      INFO(view);
      CHECK(ViewSql(view).has_value());
    }
  }
}

TEST_CASE("every embedded report file has a registry entry", "[stats][registry]") {
  size_t report_files = 0;
  for (const prof::EmbeddedFile& file : EmbeddedSqlFiles()) {
    if (!StartsWith(file.path, "reports/")) continue;
    ++report_files;
    const std::string_view stem = file.path.substr(8, file.path.size() - 8 - 4);
    INFO(file.path);
    CHECK(FindReport(stem) != nullptr);
  }
  CHECK(report_files == AllReports().size());
}

TEST_CASE("the default reports are nsys's - in nsys's order", "[stats][registry]") {
  std::vector<std::string_view> defaults;
  for (const ReportSpec& report : AllReports()) {
    if (report.is_default) defaults.push_back(report.name);
  }
  CHECK(defaults == std::vector<std::string_view>{"nvtx_sum", "osrt_sum"});
  CHECK(ReportNames() ==
        "nvtx_sum, osrt_sum, nvtx_pushpop_sum, nvtx_startend_sum, nvtx_pushpop_trace");
  CHECK(FindReport("cuda_api_sum") == nullptr);
}

}  // namespace
}  // namespace prof::stats
