// What prof profile says while it works, read from its stderr (which the program shares, so the
// order of lines is the order of events): the start line, a loss warning while the program still
// runs, processes that outlive the program, a capture range that never started, the end summary.
#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;

namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int64_t Count(const std::string& report, const std::string& sql) {
  return std::stoll(QueryRows(report, sql).at(0).at(0));
}

}  // namespace

TEST_CASE("a run says what it traces at the start and what the report holds at the end") {
  const std::string dir = MakeTempDir("console_summary");
  const std::string report = dir + "/r.sqlite";
  // -s none: without CPU samples (on by default) the report's event count is exact.
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-t", "nvtx", "-s", "none", "-o", report,
                  TestProgram("stream_program"), "flood", "2", "1500"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::vector<std::string> lines = Lines(result.err);
  REQUIRE(lines.size() == 3);
  CHECK(std::regex_match(lines[0],
                         std::regex("prof: tracing nvtx of `" + TestProgram("stream_program") +
                                    " flood 2 1500` \\(pid [0-9]+\\) into " + report)));
  // 3,000 marks: the report's own count, and its size as the file system has it.
  CHECK(Count(report, "SELECT count(*) FROM NVTX_EVENTS") == 3000);
  CHECK(std::regex_match(lines[1], std::regex("prof: report written to " + report +
                                              " \\([0-9.]+ kB\\): 3,000 events \\(3,000 NVTX "
                                              "events\\)")));
  CHECK(std::regex_match(lines[2],
                         std::regex("prof: finished [0-9]+\\.[0-9] s after the program exited")));
  // -q keeps only warnings and errors.
  const CommandResult quiet =
      RunCommand({ProfBinary(), "profile", "-q", "-t", "nvtx", "-f", "true", "-o", report,
                  TestProgram("stream_program"), "flood", "1", "10"});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("records lost while the program runs are said then with a count before it ends") {
  const std::string dir = MakeTempDir("console_loss");
  const std::string report = dir + "/r.sqlite";
  // The program stops prof, emits more marks than its rings hold, lets prof go on and runs for
  // three more seconds: the loss must be said meanwhile, before "program done" (decoding the
  // ring's ~470,000 marks comes first, slower under ASan).
  const int64_t emitted = 3'000'000;
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-t", "nvtx", "-o", report,
                  TestProgram("stream_program"), "stall", std::to_string(emitted)});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const size_t warning = result.err.find(" events lost so far; process ");
  const size_t done = result.err.find("program done\n");
  REQUIRE(warning != std::string::npos);
  REQUIRE(done != std::string::npos);
  CHECK(warning < done);
  const int64_t kept = Count(report, "SELECT count(*) FROM NVTX_EVENTS WHERE text = 'stall'");
  const int64_t lost =
      Count(report, "SELECT value FROM PROF_SESSION WHERE name = 'dropped_records'");
  CHECK(lost > 0);
  CHECK(kept + lost == emitted);
}

TEST_CASE("processes that outlive the program are named while prof waits for them") {
  const std::string dir = MakeTempDir("console_waiting");
  const CommandResult result = RunCommand({ProfBinary(), "profile", "-t", "osrt", "-o", dir + "/r",
                                           "sh", "-c", "sleep 2 & echo started"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(std::regex_search(result.err,
                          std::regex("\nprof: waiting for 1 process that outlived the program "
                                     "\\(pid [0-9]+\\); Ctrl-C to stop\n")));
}

TEST_CASE("a capture range that never started is said when the program exits") {
  const std::string dir = MakeTempDir("console_no_capture");
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-t", "nvtx", "-o", dir + "/r", "-c", "nvtx", "-p",
                  "never", TestProgram("stream_program"), "flood", "1", "10"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("prof: warning: the program exited without starting the NVTX range "
                        "'never' (--nvtx-capture): collection never started, the report holds no "
                        "events\n") != std::string::npos);
  CHECK(result.err.find(": no events\n") != std::string::npos);
}
