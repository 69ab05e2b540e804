// The registry and the embedded SQL agree, and every report file follows the documented shape.
#include "stats/report_registry.h"

#include <algorithm>
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
  // nsys 2025.3's defaults that prof has, in nsys's order (nsys then runs API summaries of other
  // libraries prof does not trace).
  CHECK(defaults == std::vector<std::string_view>{"nvtx_sum", "osrt_sum", "cuda_api_sum",
                                                  "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum",
                                                  "cuda_gpu_mem_size_sum"});
  CHECK(StartsWith(ReportNames(),
                   "nvtx_sum, osrt_sum, cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, "
                   "cuda_gpu_mem_size_sum, nvtx_pushpop_sum, "));
  CHECK(FindReport("cuda_gpu_sum") != nullptr);
  CHECK(FindReport("cuda_gpu_kern_sum:base") == nullptr);
}

TEST_CASE("the reports that print kernel names take base and mangled", "[stats][registry]") {
  std::vector<std::string_view> with_options;
  for (const ReportSpec& report : AllReports()) {
    // Reports with valued options (cpu_sample_*, gpu_metrics_sum) print no kernel names.
    const bool valued =
        std::any_of(report.options.begin(), report.options.end(),
                    [](std::string_view option) { return option.find('=') != option.npos; });
    if (report.options.empty() || valued) continue;
    INFO(report.name);
    CHECK(report.options == kKernelNameOptions);
    if (report.name.substr(0, 5) == "cuda_") with_options.push_back(report.name);
  }
  for (std::string_view name :
       {"cuda_gpu_kern_sum", "cuda_gpu_sum", "cuda_api_gpu_sum", "cuda_kern_exec_sum"}) {
    INFO(name);
    CHECK(std::find(with_options.begin(), with_options.end(), name) != with_options.end());
  }
  for (std::string_view name :
       {"cuda_api_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "nvtx_sum", "osrt_sum"}) {
    INFO(name);
    CHECK(FindReport(name)->options.empty());
  }
}

TEST_CASE("every stood-in table has prof's DDL", "[stats][registry]") {
  for (const ReportSpec& report : AllReports()) {
    for (std::string_view table : report.any_of_tables) {
      INFO(report.name << " " << table);
      const auto sql = StandInSql(table);
      REQUIRE(sql.has_value());
      CHECK(StartsWith(*sql, "CREATE TEMP TABLE IF NOT EXISTS " + std::string(table) + " ("));
    }
  }
  CHECK_FALSE(StandInSql("NO_SUCH_TABLE").has_value());
}

}  // namespace
}  // namespace prof::stats
