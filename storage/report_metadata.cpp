#include "storage/report_metadata.h"

#include <ctime>
#include <filesystem>

#ifndef PROF_VERSION
#error "PROF_VERSION must be defined by the build (storage/CMakeLists.txt)"
#endif

namespace prof::storage {
namespace {

constexpr const char* kArchitecture =
#if defined(__x86_64__)
    "x64";
#elif defined(__aarch64__)
    "arm64";
#else
    "unknown";
#endif

std::string FormatTime(int64_t epoch_ns, bool utc, const char* format) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ns / 1000000000);
  std::tm parts{};
  if (utc) {
    gmtime_r(&seconds, &parts);
  } else {
    localtime_r(&seconds, &parts);
  }
  char text[64];
  const size_t length = std::strftime(text, sizeof(text), format, &parts);
  return std::string(text, length);
}

constexpr const char* kIsoSeconds = "%Y-%m-%dT%H:%M:%S";

}  // namespace

std::string FormatUtcTime(int64_t epoch_ns) { return FormatTime(epoch_ns, true, kIsoSeconds); }

std::string FormatLocalTime(int64_t epoch_ns) { return FormatTime(epoch_ns, false, kIsoSeconds); }

NameValues ExportMetadata(const std::string& final_path, int64_t now_utc_ns) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(final_path, error);
  if (error) absolute = final_path;
  return {
      {"EXPORT_PRODUCT_NAME", "prof"},
      {"EXPORT_PRODUCT_VERSION", PROF_VERSION},
      {"EXPORT_SCHEMA_VERSION", std::to_string(kNsysSchemaMajor) + "." +
                                    std::to_string(kNsysSchemaMinor) + "." +
                                    std::to_string(kNsysSchemaMicro)},
      {"EXPORT_SCHEMA_VERSION_MAJOR", std::to_string(kNsysSchemaMajor)},
      {"EXPORT_SCHEMA_VERSION_MINOR", std::to_string(kNsysSchemaMinor)},
      {"EXPORT_SCHEMA_VERSION_MICRO", std::to_string(kNsysSchemaMicro)},
      {"EXPORT_PLATFORM", "linux"},
      {"EXPORT_ARCH", kArchitecture},
      {"EXPORT_TIME_UTC", FormatUtcTime(now_utc_ns)},
      {"EXPORT_TIME_LOCAL", FormatTime(now_utc_ns, false, "%Y-%m-%dT%H:%M:%S %z %Z")},
      {"EXPORT_PARAM_OUTPUT_FILE", absolute.filename().string()},
      {"EXPORT_PARAM_OUTPUT_PATH_ABS", absolute.lexically_normal().string()},
  };
}

NameValues SessionRows(const SessionInfo& session) {
  NameValues rows = {
      {"prof_version", session.prof_version},
      {"command_line", session.command_line},
      {"trace_options", session.trace_options},
      {"osrt_threshold_ns", std::to_string(session.osrt_threshold_ns)},
      {"environment_set", session.environment_set},
      {"exit_status", std::to_string(session.exit_status)},
      {"duration_ns", std::to_string(session.duration_ns)},
  };
  rows.insert(rows.end(), session.data_problems.begin(), session.data_problems.end());
  rows.emplace_back("utc_epoch_ns_at_start", std::to_string(session.utc_epoch_ns_at_start));
  return rows;
}

}  // namespace prof::storage
