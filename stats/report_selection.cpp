#include "stats/report_selection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/named_entries.h"
#include "common/split.h"
#include "stats/report_query.h"

namespace prof::stats {
namespace {

// A valued option is listed as "<name>=<kind>" (report_registry.h); whether `value` is one.
bool IsValueOfKind(std::string_view kind, const std::string& value) {
  if (value.empty()) return false;
  char* end = nullptr;
  if (kind == "<integer>") {
    errno = 0;
    std::strtoll(value.c_str(), &end, 10);
    return errno == 0 && *end == '\0';
  }
  if (kind == "<number>") {
    errno = 0;
    std::strtod(value.c_str(), &end);
    return errno == 0 && *end == '\0';
  }
  if (kind.find('|') != std::string_view::npos) {  // one of a list: <self_cpu|calls>
    const std::vector<std::string_view> choices = Split(kind.substr(1, kind.size() - 2), '|');
    return std::find(choices.begin(), choices.end(), value) != choices.end();
  }
  return true;  // <text>
}

// `option` is "<flag>" or "<name>=<value>"; `*name` its name either way.
Status CheckOption(const ReportSpec& report, const std::string& option, std::string* name) {
  const auto& valid = report.options;
  const size_t equals = option.find('=');
  *name = option.substr(0, equals);
  const std::string report_name(report.name);
  for (std::string_view spelling : valid) {
    const size_t valid_equals = spelling.find('=');
    if (spelling.substr(0, valid_equals) != *name) continue;
    if ((valid_equals == std::string_view::npos) != (equals == std::string::npos)) break;
    if (equals == std::string::npos) return Status::Ok();
    const std::string value = option.substr(equals + 1);
    if (IsValueOfKind(spelling.substr(valid_equals + 1), value)) return Status::Ok();
    return Status::Error("option " + *name + " of report " + report_name + " takes " +
                         std::string(spelling.substr(valid_equals + 1)) + " (got '" + value + "')");
  }
  if (valid.empty()) {
    return Status::Error("report " + report_name + " takes no options (got '" + option + "')");
  }
  return Status::Error("unknown option '" + option + "' of report " + report_name +
                       "; valid options: " + JoinNames(report.options));
}

// "<name>[:<option>...]" to a request; options keep their order, repeats dropped.
Status ParseRequest(const std::string& text, ReportRequest* out) {
  const std::vector<std::string> parts = Split(text, ':');
  out->report = FindReport(parts[0]);
  if (out->report == nullptr) {
    return Status::Error("unknown report '" + parts[0] + "'; valid reports: " + ReportNames());
  }
  std::vector<std::string> names;
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string name;
    PROF_RETURN_IF_ERROR(CheckOption(*out->report, parts[i], &name));
    auto& options = out->options;
    if (std::find(options.begin(), options.end(), parts[i]) != options.end()) continue;
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Status::Error("option " + name + " of report " + parts[0] + " is given twice");
    }
    names.push_back(name);
    options.push_back(parts[i]);
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
  // An option's value (an NVTX range name) may hold any character; a file name keeps these.
  for (char& c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.' &&
        c != '=') {
      c = '_';
    }
  }
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
