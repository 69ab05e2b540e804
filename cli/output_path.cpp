#include "cli/output_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace prof::cli {
namespace {

constexpr const char* kReportExtension = ".sqlite";

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string HostName() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

}  // namespace

Status ExpandOutputPattern(const std::string& pattern, pid_t pid, std::string* expanded) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    const char code = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (code == '%') {
      out += '%';
    } else if (code == 'p') {
      out += std::to_string(pid);
    } else if (code == 'h') {
      out += HostName();
    } else if (code == 'q' && i + 2 < pattern.size() && pattern[i + 2] == '{') {
      const size_t close = pattern.find('}', i + 3);
      if (close == std::string::npos) return Status::Error("unterminated %q{ in --output: " + pattern);
      const std::string variable = pattern.substr(i + 3, close - (i + 3));
      const char* value = std::getenv(variable.c_str());
      if (value == nullptr) {
        return Status::Error("environment variable " + variable + " used in --output is not set");
      }
      out += value;
      i = close;
      continue;
    } else {
      return Status::Error("unknown sequence %" + std::string(1, code) + " in --output: " + pattern +
                           " (valid: %p, %h, %q{VAR}, %%)");
    }
    ++i;
  }
  *expanded = out;
  return Status::Ok();
}

Status ResolveReportPath(const std::string& pattern, pid_t pid, bool force_overwrite,
                         std::string* path) {
  namespace fs = std::filesystem;
  if (pattern.empty()) {
    for (int n = 1;; ++n) {
      const std::string candidate = "report" + std::to_string(n) + kReportExtension;
      std::error_code error;
      if (!fs::exists(candidate, error)) {
        *path = candidate;
        return Status::Ok();
      }
    }
  }
  std::string expanded;
  Status status = ExpandOutputPattern(pattern, pid, &expanded);
  if (!status.ok()) return status;
  if (!EndsWith(expanded, kReportExtension)) expanded += kReportExtension;
  std::error_code error;
  if (!force_overwrite && fs::exists(expanded, error)) {
    return Status::Error("report " + expanded + " already exists; use --force-overwrite=true to replace it");
  }
  if (fs::is_directory(expanded, error)) return Status::Error("report path is a directory: " + expanded);
  *path = expanded;
  return Status::Ok();
}

std::string NumberedReportPath(const std::string& path, uint32_t number) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const size_t at = has_extension ? dot : path.size();
  return path.substr(0, at) + "." + std::to_string(number) + path.substr(at);
}

Status ResolveNumberedReportPath(const std::string& pattern, pid_t pid, uint32_t number,
                                 bool force_overwrite, std::string* path) {
  namespace fs = std::filesystem;
  std::string base;
  Status status = ResolveReportPath(pattern, pid, true, &base);
  if (!status.ok()) return status;
  const std::string numbered = NumberedReportPath(base, number);
  std::error_code error;
  if (!force_overwrite && fs::exists(numbered, error)) {
    return Status::Error("report " + numbered + " already exists; use --force-overwrite=true to replace it");
  }
  if (fs::is_directory(numbered, error)) return Status::Error("report path is a directory: " + numbered);
  *path = numbered;
  return Status::Ok();
}

}  // namespace prof::cli
