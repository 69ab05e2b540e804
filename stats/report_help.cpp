#include "stats/report_help.h"

#include "common/named_entries.h"
#include "common/split.h"
#include "stats/report_registry.h"

namespace prof::stats {
namespace {

// "cuda_gpu_kern_sum[:base|:mangled]", as nsys lists a report with its options.
std::string NameWithOptions(const ReportSpec& report) {
  std::string text(report.name);
  if (report.options.empty()) return text;
  text += "[";
  for (size_t i = 0; i < report.options.size(); ++i) {
    text += (i > 0 ? "|:" : ":") + std::string(report.options[i]);
  }
  return text + "]";
}

// The SQL's leading "-- " lines, without the dashes.
std::string HeaderComment(const ReportSpec& report) {
  std::string text;
  const std::optional<std::string_view> sql = ReportSql(report);
  if (!sql) return text;
  for (std::string_view line : Split(*sql, '\n')) {
    if (line.substr(0, 2) != "--") break;
    line.remove_prefix(line.size() > 2 && line[2] == ' ' ? 3 : 2);
    text += std::string(line) + "\n";
  }
  return text;
}

std::string Description(const ReportSpec& report) {
  std::string text = NameWithOptions(report) + " -- " + std::string(report.title) + "\n\n";
  text += HeaderComment(report);
  if (!report.options.empty()) text += "Options: " + JoinNames(report.options) + "\n";
  text += report.is_default
              ? "A default report: runs without -r when the file has its data.\n"
              : "Not a default report: run it with -r " + std::string(report.name) + ".\n";
  return text;
}

}  // namespace

std::string ReportListText() {
  std::string text = "The following built-in reports are available:\n\n";
  for (const ReportSpec& report : AllReports()) {
    text += "  " + NameWithOptions(report) + " -- " + std::string(report.title) + "\n";
  }
  return text;
}

StatusOr<std::string> ReportHelpText(std::string_view name) {
  if (name == "ALL") {
    std::string text;
    for (const ReportSpec& report : AllReports()) {
      text += (text.empty() ? "" : "\n") + Description(report);
    }
    return text;
  }
  const ReportSpec* report = FindReport(name);
  if (report == nullptr) {
    return Status::Error("unknown report '" + std::string(name) +
                         "'; valid reports: " + ReportNames());
  }
  return Description(*report);
}

}  // namespace prof::stats
