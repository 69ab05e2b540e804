#include "stats/report_inputs.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace prof::stats {
namespace {

bool IsPattern(const std::string& argument) {
  std::error_code error;
  return argument.find_first_of("*?[") != std::string::npos &&
         !std::filesystem::exists(argument, error);
}

Status AddDirectory(const std::string& directory, std::vector<std::string>* out) {
  std::vector<std::string> reports;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    std::error_code type_error;
    if (entry.path().extension() == ".sqlite" && entry.is_regular_file(type_error)) {
      reports.push_back(entry.path().string());
    }
  }
  if (error) return Status::Error("cannot list directory " + directory + ": " + error.message());
  if (reports.empty()) return Status::Error("directory " + directory + " has no .sqlite reports");
  std::sort(reports.begin(), reports.end());
  out->insert(out->end(), reports.begin(), reports.end());
  return Status::Ok();
}

Status AddMatches(const std::string& pattern, std::vector<std::string>* out) {
  glob_t matches{};
  const int result = glob(pattern.c_str(), 0, nullptr, &matches);  // glob(3) sorts its matches
  if (result == 0) out->insert(out->end(), matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  globfree(&matches);
  if (result == GLOB_NOMATCH) return Status::Error("no report file matches " + pattern);
  if (result != 0) return Status::Error("cannot expand the pattern " + pattern);
  return Status::Ok();
}

}  // namespace

Status ExpandReportInputs(const std::vector<std::string>& arguments,
                          std::vector<std::string>* out) {
  for (const std::string& argument : arguments) {
    std::error_code error;
    if (std::filesystem::is_directory(argument, error)) {
      PROF_RETURN_IF_ERROR(AddDirectory(argument, out));
    } else if (IsPattern(argument)) {
      PROF_RETURN_IF_ERROR(AddMatches(argument, out));
    } else {
      out->push_back(argument);
    }
  }
  return Status::Ok();
}

}  // namespace prof::stats
