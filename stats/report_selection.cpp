#include "stats/report_selection.h"

#include <algorithm>

#include "common/named_entries.h"
#include "common/split.h"
#include "stats/report_query.h"

namespace prof::stats {
namespace {

Status CheckOption(const ReportSpec& report, const std::string& option) {
  const auto& valid = report.options;
  if (std::find(valid.begin(), valid.end(), option) != valid.end()) return Status::Ok();
  const std::string name(report.name);
  if (valid.empty()) {
    return Status::Error("report " + name + " takes no options (got '" + option + "')");
  }
  return Status::Error("unknown option '" + option + "' of report " + name +
                       "; valid options: " + JoinNames(report.options));
}

// "<name>[:<option>...]" to a request; options keep their order, repeats dropped.
Status ParseRequest(const std::string& text, ReportRequest* out) {
  const std::vector<std::string> parts = Split(text, ':');
  out->report = FindReport(parts[0]);
  if (out->report == nullptr) {
    return Status::Error("unknown report '" + parts[0] + "'; valid reports: " + ReportNames());
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    PROF_RETURN_IF_ERROR(CheckOption(*out->report, parts[i]));
    auto& options = out->options;
    if (std::find(options.begin(), options.end(), parts[i]) == options.end()) {
      options.push_back(parts[i]);
    }
  }
  return Status::Ok();
}

bool SameRequest(const ReportRequest& a, const ReportRequest& b) {
  std::vector<std::string> a_options = a.options;
  std::vector<std::string> b_options = b.options;
  std::sort(a_options.begin(), a_options.end());
  std::sort(b_options.begin(), b_options.end());
  return a.report == b.report && a_options == b_options;
}

Status NamedReports(const std::vector<std::string>& names, std::vector<ReportRequest>* out) {
  for (const std::string& name : names) {
    ReportRequest request;
    PROF_RETURN_IF_ERROR(ParseRequest(name, &request));
    const auto same = [&](const ReportRequest& other) { return SameRequest(request, other); };
    if (std::none_of(out->begin(), out->end(), same)) out->push_back(std::move(request));
  }
  return Status::Ok();
}

Status DefaultReports(storage::Database* db, std::vector<ReportRequest>* out) {
  for (const ReportSpec& report : AllReports()) {
    if (!report.is_default) continue;
    bool present = false;
    PROF_RETURN_IF_ERROR(HasRequiredTables(db, report, &present));
    if (present) out->push_back({&report, {}});
  }
  return Status::Ok();
}

}  // namespace

std::string ReportRequest::Spelling() const {
  std::string text(report->name);
  for (const std::string& option : options) text += ":" + option;
  return text;
}

std::string ReportRequest::FileStem() const {
  std::string text(report->name);
  for (const std::string& option : options) text += "_" + option;
  return text;
}

Status SelectReports(const std::vector<std::string>& requested, storage::Database* db,
                     std::vector<ReportRequest>* out) {
  std::vector<ReportRequest> selected;
  Status status =
      requested.empty() ? DefaultReports(db, &selected) : NamedReports(requested, &selected);
  if (!status.ok()) return status;
  *out = std::move(selected);
  return Status::Ok();
}

}  // namespace prof::stats
