// The name/value rows of META_DATA_EXPORT and PROF_SESSION and the session start time texts.
#include "storage/report_metadata.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <map>

namespace prof::storage {
namespace {

std::map<std::string, std::string> AsMap(const NameValues& rows) {
  return std::map<std::string, std::string>(rows.begin(), rows.end());
}

TEST_CASE("session start times are formatted like nsys", "[storage][metadata]") {
  // TARGET_INFO_SESSION_START_TIME of torch_mix.sqlite.
  CHECK(FormatUtcTime(1796226914772304646) == "2026-12-02T15:55:14");
  CHECK(FormatUtcTime(0) == "1970-01-01T00:00:00");
  // POSIX TZ strings need no tz database; glibc's localtime_r reads TZ only through tzset().
  setenv("TZ", "UTC0", 1);
  tzset();
  CHECK(FormatLocalTime(1796226914772304646) == "2026-12-02T15:55:14");
  setenv("TZ", "XYZ-5:30", 1);  // UTC+05:30
  tzset();
  CHECK(FormatLocalTime(1796226914772304646) == "2026-12-02T21:25:14");
  unsetenv("TZ");
  tzset();
}

TEST_CASE("META_DATA_EXPORT names prof and the nsys schema it follows", "[storage][metadata]") {
  const NameValues rows = ExportMetadata("/tmp/dir/../out/run.sqlite", 1796226914772304646);
  REQUIRE(rows.size() == 12);
  CHECK(rows[0] == std::make_pair(std::string("EXPORT_PRODUCT_NAME"), std::string("prof")));
  const auto values = AsMap(rows);
  CHECK(values.at("EXPORT_SCHEMA_VERSION") == "3.20.3");
  CHECK(values.at("EXPORT_SCHEMA_VERSION_MAJOR") == "3");
  CHECK(values.at("EXPORT_SCHEMA_VERSION_MINOR") == "20");
  CHECK(values.at("EXPORT_SCHEMA_VERSION_MICRO") == "3");
  CHECK(values.at("EXPORT_PRODUCT_VERSION") == PROF_TEST_EXPECTED_VERSION);
  CHECK(values.at("EXPORT_PLATFORM") == "linux");
  CHECK(values.at("EXPORT_TIME_UTC") == "2026-12-02T15:55:14");
  CHECK(values.at("EXPORT_PARAM_OUTPUT_FILE") == "run.sqlite");
  CHECK(values.at("EXPORT_PARAM_OUTPUT_PATH_ABS") == "/tmp/out/run.sqlite");
}

TEST_CASE("PROF_SESSION has one row per SessionInfo field", "[storage][metadata]") {
  SessionInfo session;
  session.prof_version = "0.1.0";
  session.command_line = "python3 'my script.py'";
  session.trace_options = "nvtx,osrt";
  session.osrt_threshold_ns = 1000;
  session.environment_set =
      "LD_PRELOAD=/x/libprof_osrt.so\nNVTX_INJECTION64_PATH=/x/libprof_nvtx.so";
  session.exit_status = 137;
  session.duration_ns = 6327000000;
  session.data_problems = {{"dropped_records", "3"}, {"torn_records", "7"}};
  session.utc_epoch_ns_at_start = 1796226914772304646;
  const NameValues expected = {
      {"prof_version", "0.1.0"},
      {"command_line", "python3 'my script.py'"},
      {"trace_options", "nvtx,osrt"},
      {"osrt_threshold_ns", "1000"},
      {"environment_set",
       "LD_PRELOAD=/x/libprof_osrt.so\nNVTX_INJECTION64_PATH=/x/libprof_nvtx.so"},
      {"exit_status", "137"},
      {"duration_ns", "6327000000"},
      {"dropped_records", "3"},
      {"torn_records", "7"},
      {"utc_epoch_ns_at_start", "1796226914772304646"},
  };
  CHECK(SessionRows(session) == expected);
}

}  // namespace
}  // namespace prof::storage
