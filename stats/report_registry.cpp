#include "stats/report_registry.h"

#include "stats/embedded_sql.h"

namespace prof::stats {
namespace {

constexpr std::string_view kNvtxData = "NV Tools Extension (NVTX) data";

}  // namespace

const std::vector<ReportSpec>& AllReports() {
  static const std::vector<ReportSpec> reports = {
      {"nvtx_sum",
       "NVTX Range Summary",
       true,
       {"NVTX_EVENTS", "StringIds"},
       {"nvtx_ranges"},
       kNvtxData},
      {"osrt_sum",
       "OS Runtime Summary",
       true,
       {"OSRT_API", "StringIds"},
       {},
       "OS Runtime trace data"},
      {"nvtx_pushpop_sum",
       "NVTX Push/Pop Range Summary",
       false,
       {"NVTX_EVENTS", "StringIds"},
       {"nvtx_ranges"},
       kNvtxData},
      {"nvtx_startend_sum",
       "NVTX Start/End Range Summary",
       false,
       {"NVTX_EVENTS", "StringIds"},
       {"nvtx_ranges"},
       kNvtxData},
      {"nvtx_pushpop_trace",
       "NVTX Push/Pop Range Trace",
       false,
       {"NVTX_EVENTS", "StringIds"},
       {"nvtx_ranges"},
       kNvtxData},
  };
  return reports;
}

const ReportSpec* FindReport(std::string_view name) {
  for (const ReportSpec& report : AllReports()) {
    if (report.name == name) return &report;
  }
  return nullptr;
}

std::string ReportNames() {
  std::string names;
  for (const ReportSpec& report : AllReports()) {
    names += (names.empty() ? "" : ", ") + std::string(report.name);
  }
  return names;
}

std::optional<std::string_view> ReportSql(const ReportSpec& report) {
  return FindEmbeddedSql("reports/" + std::string(report.name) + ".sql");
}

std::optional<std::string_view> ViewSql(std::string_view view) {
  return FindEmbeddedSql("views/" + std::string(view) + ".sql");
}

}  // namespace prof::stats
