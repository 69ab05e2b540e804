#include "cli/output_path.h"

#include <unistd.h>

#include <cstdlib>

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
      if (close == std::string::npos)
        return Status::Error("unterminated %q{ in --output: " + pattern);
      const std::string variable = pattern.substr(i + 3, close - (i + 3));
      const char* value = std::getenv(variable.c_str());
      if (value == nullptr) {
        return Status::Error("environment variable " + variable + " used in --output is not set");
      }
      out += value;
      i = close;
      continue;
    } else {
      return Status::Error("unknown sequence %" + std::string(1, code) +
                           " in --output: " + pattern + " (valid: %p, %h, %q{VAR}, %%)");
    }
    ++i;
  }
  *expanded = out;
  return Status::Ok();
}

Status ExpandReportPath(const std::string& pattern, pid_t pid, std::string* path) {
  std::string expanded;
  Status status = ExpandOutputPattern(pattern, pid, &expanded);
  if (!status.ok()) return status;
  if (!EndsWith(expanded, kReportExtension)) expanded += kReportExtension;
  *path = expanded;
  return Status::Ok();
}

std::string DefaultReportPath(uint32_t number) {
  return "report" + std::to_string(number) + kReportExtension;
}

std::string NumberedReportPath(const std::string& path, uint32_t number) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const size_t at = has_extension ? dot : path.size();
  return path.substr(0, at) + "." + std::to_string(number) + path.substr(at);
}

}  // namespace prof::cli
