#include "stats/report_registry.h"

#include "stats/embedded_sql.h"

namespace prof::stats {
namespace {

// Every NVTX report reads the nvtx_ranges view; the summaries read nvtx_range_summary, built on it.
ReportSpec NvtxReport(std::string_view name, std::string_view title, bool is_default) {
  return {name,
          title,
          is_default,
          {"NVTX_EVENTS", "StringIds"},
          {"nvtx_ranges", "nvtx_range_summary"},
          "NV Tools Extension (NVTX) data"};
}

}  // namespace

const std::vector<ReportSpec>& AllReports() {
  static const std::vector<ReportSpec> reports = {
      NvtxReport("nvtx_sum", "NVTX Range Summary", true),
      {"osrt_sum",
       "OS Runtime Summary",
       true,
       {"OSRT_API", "StringIds"},
       {},
       "OS Runtime trace data"},
      NvtxReport("nvtx_pushpop_sum", "NVTX Push/Pop Range Summary", false),
      NvtxReport("nvtx_startend_sum", "NVTX Start/End Range Summary", false),
      NvtxReport("nvtx_pushpop_trace", "NVTX Push/Pop Range Trace", false),
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
