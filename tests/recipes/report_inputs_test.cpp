// Directories and patterns as report inputs (stats/report_inputs.h).
#include "stats/report_inputs.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "tests/support/test_support.h"

namespace prof::stats {
namespace {

void Touch(const std::string& path) { std::ofstream(path) << ""; }

TEST_CASE("report inputs expand directories and patterns in sorted order", "[recipes]") {
  const std::string dir = prof::test::MakeTempDir("report_inputs");
  for (const char* name : {"rank1.sqlite", "rank0.sqlite", "rank10.sqlite", "notes.txt"}) {
    Touch(dir + "/" + name);
  }
  std::vector<std::string> paths;
  REQUIRE(ExpandReportInputs({dir, dir + "/rank1*.sqlite", "plain.sqlite"}, &paths).ok());
  CHECK(paths == std::vector<std::string>{dir + "/rank0.sqlite", dir + "/rank1.sqlite",
                                          dir + "/rank10.sqlite", dir + "/rank1.sqlite",
                                          dir + "/rank10.sqlite", "plain.sqlite"});
}

TEST_CASE("report inputs refuse an empty directory and a pattern without matches", "[recipes]") {
  const std::string dir = prof::test::MakeTempDir("report_inputs_empty");
  std::vector<std::string> paths;
  CHECK(ExpandReportInputs({dir}, &paths).message() ==
        "directory " + dir + " has no .sqlite reports");
  CHECK(ExpandReportInputs({dir + "/*.sqlite"}, &paths).message() ==
        "no report file matches " + dir + "/*.sqlite");
}

}  // namespace
}  // namespace prof::stats
