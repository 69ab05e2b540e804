// `prof profile --osrt-threshold`: a number of ns from 0 to INT64_MAX (the report stores it
// signed); anything else is refused with one line before the program runs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;

namespace {

CommandResult ProfileWithThreshold(const std::string& report, const std::string& threshold) {
  return RunCommand({ProfBinary(), "profile", "-t", "osrt", "--osrt-threshold=" + threshold, "-o",
                     report, TestProgram("behaviour_program"), "exit", "0"});
}

}  // namespace

TEST_CASE("prof profile refuses negative, overflowing and non-decimal OS runtime thresholds") {
  const std::string dir = MakeTempDir("osrt_threshold_refused");
  for (const std::string value :
       {"-1", "99999999999999999999999", "9223372036854775808", "0x10", "1e3", "+5", " 5"}) {
    const CommandResult result = ProfileWithThreshold(dir + "/r.sqlite", value);
    INFO("--osrt-threshold=" << value);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err ==
          "prof: error: --osrt-threshold: expected a number of ns from 0 to 9223372036854775807, "
          "got '" +
              value + "'\n");
    CHECK(std::filesystem::is_empty(dir));
  }
}

TEST_CASE("prof profile accepts OS runtime thresholds 0 and INT64_MAX and records them") {
  const std::string dir = MakeTempDir("osrt_threshold_accepted");
  for (const std::string value : {"0", "9223372036854775807"}) {
    const std::string report = dir + "/r" + value + ".sqlite";
    const CommandResult result = ProfileWithThreshold(report, value);
    INFO("stderr: " << result.err);
    CHECK(result.exit_code == 0);
    CHECK(QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = 'osrt_threshold_ns'") ==
          std::vector<std::vector<std::string>>{{value}});
  }
}
