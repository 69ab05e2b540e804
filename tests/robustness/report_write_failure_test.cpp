// prof profile when the report cannot be written (a file-size limit standing in for a full disk:
// the report keeps what fit) and when prof itself is killed: the program is not harmed and runs to
// its end; a killed prof's
// claim stays under the final name (tests/cli/report_claim_test.cpp) and points to the partial
// report it leaves, readable as of its last commit.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "collector/data_problems.h"
#include "tests/support/test_support.h"

namespace prof::robustness::test {
namespace {

namespace fs = std::filesystem;
using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;
using prof::test::TestProgram;

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// "prof profile" of steady_writer, tracing every OS runtime call so that the report grows fast.
// The program creates `dir`/started when it runs and `dir`/marker when it ran to its end.
std::string ProfileCommandLine(const std::string& dir, int exit_code, int duration_ms) {
  return "'" + ProfBinary() + "' profile -t osrt --osrt-threshold=0 -o '" + dir + "/rep' '" +
         TestProgram("steady_writer") + "' '" + dir + "/marker' " + std::to_string(exit_code) +
         " " + std::to_string(duration_ms) + " '" + dir + "/started'";
}

int LinesWithout(const std::string& text, const std::string& excluded) {
  int count = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(excluded) == std::string::npos) ++count;
  }
  return count;
}

bool WaitForFile(const std::string& path, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return fs::exists(path);
}

}  // namespace

TEST_CASE(
    "a report that hits the file-size limit keeps what fit and the program's code is returned",
    "[robustness]") {
  const std::string dir = prof::test::MakeTempDir("fsize_limit");
  // 64 KiB (ulimit -f counts KiB): a second of traced writes needs far more. SIGXFSZ ignored, so
  // that write() fails with EFBIG instead of killing prof.
  const CommandResult result = RunCommand(
      {"bash", "-c", "ulimit -f 64; trap '' XFSZ; exec " + ProfileCommandLine(dir, 7, 1000)});
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 7);
  const std::string error_line = "prof: error: cannot write report " + dir + "/rep.sqlite";
  CHECK((result.err.rfind(error_line, 0) == 0 ||
         result.err.find("\n" + error_line) != std::string::npos));
  // The cause once: the first failed commit's warning says it, the error line points there.
  size_t causes = 0;
  for (size_t at = result.err.find("SQL error in "); at != std::string::npos;
       at = result.err.find("SQL error in ", at + 1)) {
    ++causes;
  }
  CHECK(causes == 1);
  // At most one warning (the first failed commit) before the error line. A loaded machine may
  // also fall behind this flood; those counted-loss warnings are true and are not counted here.
  CHECK(result.err.find("; it keeps what was written until then\n") != std::string::npos);
  CHECK(LinesWithout(prof::test::WithoutProgressNotes(result.err), " events lost so far; ") <= 2);
  // What was committed before the limit, under the report's name (with its write-ahead log when
  // there was no room to copy the log into the file), read as any report.
  std::vector<std::string> files = FilesIn(dir);
  files.erase(std::remove(files.begin(), files.end(), "rep.sqlite-wal"), files.end());
  CHECK(files == std::vector<std::string>{"marker", "rep.sqlite", "started"});
  const CommandResult stats =
      RunCommand({ProfBinary(), "stats", "-r", "osrt_sum", "--format", "csv", dir + "/rep.sqlite"});
  INFO(stats.err);
  CHECK(stats.exit_code == 0);
  CHECK(prof::test::QueryRows(dir + "/rep.sqlite", "PRAGMA integrity_check") ==
        std::vector<std::vector<std::string>>{{"ok"}});
}

TEST_CASE("the program runs to its end when prof is killed while it runs", "[robustness]") {
  const std::string dir = prof::test::MakeTempDir("prof_killed");
  // bash starts prof, waits until the program runs (a sanitized prof takes up to seconds to start
  // it on a loaded machine), kills prof with SIGKILL 0.3 s into the program's writes, and returns
  // at once. A killed prof leaves its session directory behind: TMPDIR puts it in `dir`, removed
  // with it.
  const CommandResult killer = RunCommand(
      {"bash", "-c",
       ProfileCommandLine(dir, 0, 1500) + " & while [ ! -e '" + dir +
           "/started' ] && kill -0 $! 2>/dev/null; do sleep 0.02; done; sleep 0.3; kill -KILL $!; "
           "wait $!"},
      "", {"TMPDIR=" + dir});
  const auto killed = std::chrono::steady_clock::now();
  CHECK(fs::exists(dir + "/started"));
  CHECK(killer.exit_code == 137);
  // The program has at most 1.2 s to go; once its stream is cut it must not wait on prof beyond a
  // moment.
  CHECK(WaitForFile(dir + "/marker", std::chrono::milliseconds(4000)));
  CHECK(std::chrono::steady_clock::now() - killed < std::chrono::milliseconds(4000));
  // Not a report: the placeholder of the claim, which the next run takes over.
  std::ifstream placeholder(dir + "/rep.sqlite");
  std::string line;
  CHECK(std::getline(placeholder, line));
  CHECK(line ==
        "prof: a running prof profile has claimed this name; its report replaces this file");
}

TEST_CASE("a prof killed at any moment leaves what it committed as a report prof reads",
          "[robustness]") {
  // SLURM's KillWait, the OOM killer: SIGKILL at 10 moments of a heavy run (every OS runtime call
  // of a program writing for 2.5 s), from 30 ms after the program started to 2.28 s.
  int64_t most_rows = 0;
  for (int moment = 0; moment < 10; ++moment) {
    const int delay_ms = 30 + 250 * moment;
    INFO("killed " << delay_ms << " ms into the program");
    const std::string dir = prof::test::MakeTempDir("prof_killed_at_" + std::to_string(moment));
    const CommandResult killer =
        RunCommand({"bash", "-c",
                    ProfileCommandLine(dir, 0, 2500) + " & while [ ! -e '" + dir +
                        "/started' ] && kill -0 $! 2>/dev/null; do sleep 0.01; done; sleep " +
                        std::to_string(delay_ms / 1000.0) + "; kill -KILL $!; wait $!"},
                   "", {"TMPDIR=" + dir});
    REQUIRE(killer.exit_code == 137);
    // The program runs on untraced to its end; only then is the directory still.
    CHECK(WaitForFile(dir + "/marker", std::chrono::milliseconds(8000)));
    std::vector<std::string> partials;
    for (const std::string& name : FilesIn(dir)) {
      if (name.rfind("rep.sqlite.partial-", 0) == 0 && name.find('-', 19) == std::string::npos) {
        partials.push_back(dir + "/" + name);
      }
    }
    REQUIRE(partials.size() == 1);
    // The claimed name says where the data is.
    const CommandResult named =
        RunCommand({ProfBinary(), "stats", "-r", "osrt_sum", dir + "/rep.sqlite"});
    CHECK(named.exit_code == 1);
    CHECK(named.err.find("what it wrote so far is in " + partials[0]) != std::string::npos);
    // The partial report is whole as of its last commit, and a report prof reads.
    CHECK(prof::test::QueryRows(partials[0], "PRAGMA integrity_check") ==
          std::vector<std::vector<std::string>>{{"ok"}});
    const CommandResult read =
        RunCommand({ProfBinary(), "stats", "-r", "osrt_sum", "--format", "csv", partials[0]});
    INFO(read.err);
    CHECK(read.exit_code == 0);
    // OSRT_API is created with its first row.
    const bool has_calls = prof::test::QueryCount(partials[0],
                                                  "SELECT count(*) FROM sqlite_master WHERE name = "
                                                  "'OSRT_API'") == 1;
    if (has_calls) {
      most_rows =
          std::max(most_rows, prof::test::QueryCount(partials[0], "SELECT count(*) FROM OSRT_API"));
      // Committed once a second with the rows: the process that made the calls, and every data
      // problem counter.
      CHECK(prof::test::QueryCount(partials[0],
                                   "SELECT count(*) FROM PROCESSES WHERE globalPid IN (SELECT "
                                   "DISTINCT globalTid >> 24 << 24 FROM OSRT_API)") == 1);
      CHECK(prof::test::QueryCount(partials[0], "SELECT count(*) FROM PROCESSES") == 1);
      CHECK(prof::test::QueryCount(partials[0], "SELECT count(DISTINCT name) FROM PROF_STATS") ==
            static_cast<int64_t>(prof::collector::kDataProblemCount));
      CHECK(prof::test::QueryCount(partials[0], "SELECT count(*) FROM PROF_STATS") ==
            static_cast<int64_t>(prof::collector::kDataProblemCount));
    }
  }
  // Killed after the once-a-second commits, the calls until then are there (the program makes
  // ~400,000 a second; a sanitized prof on a loaded machine writes far fewer by then).
  CHECK(most_rows > 0);
}

}  // namespace prof::robustness::test
