#include "stats/report_selection.h"

#include <algorithm>

#include "stats/report_query.h"

namespace prof::stats {
namespace {

Status NamedReports(const std::vector<std::string>& names, std::vector<const ReportSpec*>* out) {
  for (const std::string& name : names) {
    const ReportSpec* report = FindReport(name);
    if (report == nullptr) {
      return Status::Error("unknown report '" + name + "'; valid reports: " + ReportNames());
    }
    if (std::find(out->begin(), out->end(), report) == out->end()) out->push_back(report);
  }
  return Status::Ok();
}

Status DefaultReports(storage::Database* db, std::vector<const ReportSpec*>* out) {
  for (const ReportSpec& report : AllReports()) {
    if (!report.is_default) continue;
    bool present = false;
    if (Status status = HasRequiredTables(db, report, &present); !status.ok()) return status;
    if (present) out->push_back(&report);
  }
  return Status::Ok();
}

}  // namespace

Status SelectReports(const std::vector<std::string>& requested, storage::Database* db,
                     std::vector<const ReportSpec*>* out) {
  std::vector<const ReportSpec*> selected;
  Status status =
      requested.empty() ? DefaultReports(db, &selected) : NamedReports(requested, &selected);
  if (!status.ok()) return status;
  *out = std::move(selected);
  return Status::Ok();
}

}  // namespace prof::stats
