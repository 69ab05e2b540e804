// Report names are claimed before the program starts: prof runs at the same time in one directory
// (CI jobs) get distinct reports, a taken name is refused before the program runs, and a killed
// prof's claim is taken over.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "cli/report_namer.h"
#include "storage/report_name_claim.h"
#include "tests/support/test_support.h"

using prof::cli::ReportNamer;
using prof::storage::ReportNameClaim;
using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::WithoutProgressNotes;
using Rows = std::vector<std::vector<std::string>>;
namespace fs = std::filesystem;

namespace {

// Spelled out rather than taken from the header, so that a changed text fails here.
const std::string kPlaceholder =
    "prof: a running prof profile has claimed this name; its report replaces this file\n";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string Quoted(const std::string& word) { return "'" + word + "'"; }

// The profiled program: `sh program.sh INDEX STARTED WAIT COUNT` writes its pid to STARTED/INDEX,
// then waits (30 s at most) until the directory WAIT holds COUNT files, so that the prof runs of a
// test overlap for sure. Only `sleep` is started: little load for the runs beside it.
std::string WriteProgram(const std::string& dir) {
  const std::string path = dir + "/program.sh";
  std::ofstream(path) << R"(index=$1 started=$2 wait=$3 count=$4
echo $$ > "$started/$index"
tries=0
while [ $tries -lt 1500 ]; do
  set -- "$wait"/*
  if [ -e "$1" ] && [ $# -ge "$count" ]; then exit 0; fi
  sleep 0.02
  tries=$((tries + 1))
done
exit 1
)";
  return path;
}

// The first argument of the report's program: the index of the run that wrote it.
std::string RunOfReport(const std::string& report) {
  const Rows rows =
      QueryRows(report, "SELECT value FROM META_DATA_CAPTURE WHERE name = 'PROCESS_0:ARGUMENT_1'");
  return rows.size() == 1 ? rows[0][0] : "<" + std::to_string(rows.size()) + " rows>";
}

std::string ExitStatusOfReport(const std::string& report) {
  const Rows rows = QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'");
  return rows.size() == 1 ? rows[0][0] : "<" + std::to_string(rows.size()) + " rows>";
}

// What each program waits for before it exits.
enum class Barrier {
  kAllStarted,    // every run's program started: all runs are in flight together
  kOthersExited,  // every other prof exited: their claims were refused while this one held it
};

struct Runs {
  std::string dir;                 // the runs' working directory: reports and nothing else
  std::vector<int> exit_codes;     // [i]: run i + 1's
  std::vector<std::string> lines;  // [i]: run i + 1's stderr
  std::vector<int> started;        // the runs whose program started
};

// Starts `count` `prof profile` runs at once in a fresh directory, each with `prof_options`.
Runs ProfileConcurrently(const std::string& test_name, int count, const std::string& prof_options,
                         Barrier barrier) {
  const std::string dir = MakeTempDir(test_name);
  Runs runs;
  runs.dir = dir + "/runs";
  for (const char* sub : {"/runs", "/started", "/errors", "/exits"}) {
    fs::create_directory(dir + sub);
  }
  const std::string program = WriteProgram(dir);
  const std::string wait_for = barrier == Barrier::kAllStarted
                                   ? dir + "/started " + std::to_string(count)
                                   : dir + "/exits " + std::to_string(count - 1);
  // Run $i: prof's stderr goes to errors/$i, its exit code to exits/$i.
  const std::string one_run = Quoted(ProfBinary()) + " profile -t none " + prof_options + " sh " +
                              Quoted(program) + " $i " + Quoted(dir + "/started") + " " + wait_for +
                              " 2> " + Quoted(dir + "/errors") + "/$i";
  const std::string script = "cd " + Quoted(runs.dir) + " || exit 1\nfor i in $(seq 1 " +
                             std::to_string(count) + "); do\n  ( " + one_run + "; echo $? > " +
                             Quoted(dir + "/exits") + "/$i ) &\ndone\nwait\n";
  const CommandResult all = RunCommand({"bash", "-c", script});
  INFO(all.err);
  REQUIRE(all.exit_code == 0);
  for (int i = 1; i <= count; ++i) {
    const std::string code = ReadFile(dir + "/exits/" + std::to_string(i));
    runs.exit_codes.push_back(code.empty() ? -1 : std::stoi(code));
    runs.lines.push_back(WithoutProgressNotes(ReadFile(dir + "/errors/" + std::to_string(i))));
  }
  for (const std::string& name : FilesIn(dir + "/started")) runs.started.push_back(std::stoi(name));
  std::sort(runs.started.begin(), runs.started.end());
  return runs;
}

void CheckDefaultNamesAreDistinct(int count) {
  const Runs runs = ProfileConcurrently("default_names_" + std::to_string(count), count, "",
                                        Barrier::kAllStarted);
  std::set<std::string> reports;
  const std::string written = "prof: report written to ";
  for (int i = 1; i <= count; ++i) {
    const std::string& line = runs.lines[i - 1];
    INFO("run " << i << ": " << line);
    CHECK(runs.exit_codes[i - 1] == 0);
    REQUIRE(line.rfind(written, 0) == 0);
    REQUIRE(line.back() == '\n');
    const std::string report = line.substr(written.size(), line.size() - written.size() - 1);
    reports.insert(report);
    // Each report is complete and is the one of the run that named it.
    CHECK(RunOfReport(runs.dir + "/" + report) == std::to_string(i));
    CHECK(ExitStatusOfReport(runs.dir + "/" + report) == "0");
  }
  std::vector<std::string> expected;
  for (int n = 1; n <= count; ++n) expected.push_back("report" + std::to_string(n) + ".sqlite");
  std::sort(expected.begin(), expected.end());
  CHECK(std::vector<std::string>(reports.begin(), reports.end()) == expected);
  CHECK(FilesIn(runs.dir) == expected);  // no placeholder, no partial file left
  CHECK(runs.started.size() == static_cast<size_t>(count));
}

// Whether `pid` still runs (a zombie does not: nobody may be there to reap an orphan).
bool Running(pid_t pid) {
  const std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  const size_t name_end = stat.rfind(')');
  return name_end != std::string::npos && name_end + 2 < stat.size() && stat[name_end + 2] != 'Z';
}

// What prof says when it takes over a killed prof's claim and writes its report there.
std::string TakeOverLines(const std::string& report) {
  return "prof: taking over " + report + ", left by a prof run that ended without writing it\n" +
         "prof: report written to " + report + "\n";
}

}  // namespace

TEST_CASE("a claim holds its name until it ends and removes no other file") {
  const std::string dir = MakeTempDir("claim_unit");
  const std::string path = dir + "/r.sqlite";
  ReportNameClaim::Outcome outcome;
  std::unique_ptr<ReportNameClaim> claim;
  REQUIRE(ReportNameClaim::Take(path, &outcome, &claim).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kClaimed);
  REQUIRE(claim != nullptr);
  CHECK(ReadFile(path) == kPlaceholder);

  std::unique_ptr<ReportNameClaim> second;
  REQUIRE(ReportNameClaim::Take(path, &outcome, &second).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kBeingWritten);
  CHECK(second == nullptr);
  claim.reset();
  CHECK_FALSE(fs::exists(path));

  // A report that replaced the placeholder (a -f run's, or the own one) stays when the claim ends.
  REQUIRE(ReportNameClaim::Take(path, &outcome, &claim).ok());
  std::ofstream(dir + "/other") << "report";
  fs::rename(dir + "/other", path);
  claim.reset();
  CHECK(ReadFile(path) == "report");

  REQUIRE(ReportNameClaim::Take(path, &outcome, &claim).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kExists);
  CHECK(claim == nullptr);
  CHECK(ReadFile(path) == "report");

  // Empty, or the placeholder text plus more: a user's file, not a claim.
  std::ofstream(dir + "/empty.sqlite");
  REQUIRE(ReportNameClaim::Take(dir + "/empty.sqlite", &outcome, &claim).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kExists);
  std::ofstream(dir + "/longer.sqlite") << kPlaceholder << "x";
  REQUIRE(ReportNameClaim::Take(dir + "/longer.sqlite", &outcome, &claim).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kExists);
  CHECK(ReadFile(dir + "/longer.sqlite") == kPlaceholder + "x");

  // The placeholder text with no lock on it: its prof is gone.
  std::ofstream(dir + "/dead.sqlite") << kPlaceholder;
  REQUIRE(ReportNameClaim::Take(dir + "/dead.sqlite", &outcome, &claim).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kTakenOver);
  REQUIRE(claim != nullptr);
  REQUIRE(ReportNameClaim::Take(dir + "/dead.sqlite", &outcome, &second).ok());
  CHECK(outcome == ReportNameClaim::Outcome::kBeingWritten);
  claim.reset();
  CHECK_FALSE(fs::exists(dir + "/dead.sqlite"));

  CHECK(ReportNameClaim::Take(dir + "/no/r.sqlite", &outcome, &claim).message() ==
        "cannot create report " + dir + "/no/r.sqlite: No such file or directory");
}

TEST_CASE("default names are the first claimable reportN - repeated captures keep their N") {
  const std::string dir = MakeTempDir("namer_defaults");
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  std::string path;
  std::unique_ptr<ReportNameClaim> first, second, third;
  ReportNamer a("", false);
  REQUIRE(a.Claim(1, 0, &path, &first).ok());
  CHECK(path == "report1.sqlite");
  std::ofstream("report2.sqlite") << "x";
  ReportNamer b("", false);
  REQUIRE(b.Claim(1, 0, &path, &second).ok());
  CHECK(path == "report3.sqlite");
  first.reset();            // a failed run: report1.sqlite is free again
  ReportNamer c("", true);  // -f does not stop default names from being claimed
  REQUIRE(c.Claim(1, 0, &path, &first).ok());
  CHECK(path == "report1.sqlite");
  CHECK(first != nullptr);

  // Repeated captures: reportN.sqlite must not exist either, and later captures keep N.
  ReportNamer d("", false);
  REQUIRE(d.Claim(1, 1, &path, &third).ok());
  CHECK(path == "report4.1.sqlite");
  std::unique_ptr<ReportNameClaim> fourth;
  REQUIRE(d.Claim(1, 2, &path, &fourth).ok());
  CHECK(path == "report4.2.sqlite");
  CHECK(FilesIn(".") == std::vector<std::string>{"report1.sqlite", "report2.sqlite",
                                                 "report3.sqlite", "report4.1.sqlite",
                                                 "report4.2.sqlite"});
  fs::current_path(previous);
}

TEST_CASE("names given with -o are claimed and refused when taken - -f claims nothing") {
  const std::string dir = MakeTempDir("namer_given");
  std::string path;
  std::unique_ptr<ReportNameClaim> claim, other;
  ReportNamer first(dir + "/run_%p", false);
  REQUIRE(first.Claim(42, 0, &path, &claim).ok());
  CHECK(path == dir + "/run_42.sqlite");
  CHECK(ReportNamer(dir + "/run_%p", false).Claim(42, 0, &path, &other).message() ==
        "report " + dir +
            "/run_42.sqlite is being written by another prof run; use another name, or "
            "--force-overwrite=true to replace it");
  std::ofstream(dir + "/old.sqlite") << "x";
  CHECK(ReportNamer(dir + "/old", false).Claim(42, 0, &path, &other).message() ==
        "report " + dir + "/old.sqlite already exists; use --force-overwrite=true to replace it");
  REQUIRE(ReportNamer(dir + "/run_%p", true).Claim(42, 0, &path, &other).ok());
  CHECK(path == dir + "/run_42.sqlite");
  CHECK(other == nullptr);
  fs::create_directory(dir + "/folder.sqlite");
  CHECK(ReportNamer(dir + "/folder", true).Claim(42, 0, &path, &other).message() ==
        "report path is a directory: " + dir + "/folder.sqlite");
  CHECK(ReportNamer(dir + "/folder", false).Claim(42, 0, &path, &other).message() ==
        "report " + dir +
            "/folder.sqlite already exists; use --force-overwrite=true to replace it");

  ReportNamer repeated(dir + "/rep_%p", false);
  REQUIRE(repeated.Claim(7, 1, &path, &claim).ok());
  CHECK(path == dir + "/rep_7.1.sqlite");
  REQUIRE(repeated.Claim(7, 2, &path, &other).ok());
  CHECK(path == dir + "/rep_7.2.sqlite");
}

TEST_CASE("two and eight prof runs at once in one directory each write their own reportN") {
  CheckDefaultNamesAreDistinct(2);
  CheckDefaultNamesAreDistinct(8);
}

TEST_CASE(
    "eight prof runs at once with one -o name - one report and seven refused before their "
    "program") {
  const Runs runs = ProfileConcurrently("shared_name", 8, "-o same", Barrier::kOthersExited);
  REQUIRE(runs.started.size() == 1);
  const int winner = runs.started.front();
  for (int i = 1; i <= 8; ++i) {
    INFO("run " << i);
    if (i == winner) {
      CHECK(runs.exit_codes[i - 1] == 0);
      CHECK(runs.lines[i - 1] == "prof: report written to same.sqlite\n");
    } else {
      CHECK(runs.exit_codes[i - 1] == 1);
      CHECK(runs.lines[i - 1] ==
            "prof: error: report same.sqlite is being written by another prof run; use another "
            "name, or --force-overwrite=true to replace it\n");
    }
  }
  CHECK(FilesIn(runs.dir) == std::vector<std::string>{"same.sqlite"});
  CHECK(RunOfReport(runs.dir + "/same.sqlite") == std::to_string(winner));
  CHECK(ExitStatusOfReport(runs.dir + "/same.sqlite") == "0");
}

TEST_CASE("eight prof runs at once with one -o name and -f true all run and leave one report") {
  const Runs runs =
      ProfileConcurrently("shared_forced", 8, "-f true -o same", Barrier::kAllStarted);
  CHECK(runs.started == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  for (int i = 1; i <= 8; ++i) {
    INFO("run " << i);
    CHECK(runs.exit_codes[i - 1] == 0);
    CHECK(runs.lines[i - 1] == "prof: report written to same.sqlite\n");
  }
  CHECK(FilesIn(runs.dir) == std::vector<std::string>{"same.sqlite"});
  const std::string run = RunOfReport(runs.dir + "/same.sqlite");
  CHECK(std::set<std::string>{"1", "2", "3", "4", "5", "6", "7", "8"}.count(run) == 1);
  CHECK(ExitStatusOfReport(runs.dir + "/same.sqlite") == "0");
}

TEST_CASE("a running prof's claim refuses the name - once its prof is gone it is taken over") {
  const std::string dir = MakeTempDir("claim_lock");
  const std::string report = dir + "/held.sqlite";
  const std::string program = WriteProgram(dir);
  fs::create_directory(dir + "/started");
  const std::vector<std::string> profile = {ProfBinary(), "profile",        "-t", "none",
                                            "-o",         report,           "sh", program,
                                            "1",          dir + "/started", dir,  "0"};
  // The test holds the lock as a running prof would.
  std::ofstream(report) << kPlaceholder;
  const int held = open(report.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(flock(held, LOCK_EX | LOCK_NB) == 0);
  const CommandResult refused = RunCommand(profile);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err == "prof: error: report " + report +
                           " is being written by another prof run; use another name, or "
                           "--force-overwrite=true to replace it\n");
  CHECK(FilesIn(dir + "/started").empty());
  CHECK(ReadFile(report) == kPlaceholder);

  close(held);
  const CommandResult taken = RunCommand(profile);
  CHECK(taken.exit_code == 0);
  CHECK(WithoutProgressNotes(taken.err) == TakeOverLines(report));
  CHECK(FilesIn(dir + "/started") == std::vector<std::string>{"1"});
  CHECK(RunOfReport(report) == "1");
}

TEST_CASE("a SIGKILLed prof leaves its placeholder - the next run takes the name over") {
  const std::string dir = MakeTempDir("claim_killed");
  const std::string program = WriteProgram(dir);
  for (const char* sub : {"/runs", "/started", "/release"}) {
    fs::create_directory(dir + sub);
  }
  const std::string report = dir + "/runs/killed.sqlite";
  // The program waits for a file in release/; prof is killed once the program started, so after
  // its claim. TMPDIR: the killed prof's session directory lands in `dir`, removed with it.
  const std::string profile = Quoted(ProfBinary()) + " profile -t none -o " + Quoted(report) +
                              " sh " + Quoted(program) + " 1 " + Quoted(dir + "/started") + " " +
                              Quoted(dir + "/release") + " 1 >/dev/null 2>&1";
  const std::string started = "[ -e " + Quoted(dir + "/started/1") + " ]";
  const std::string script =
      profile + " & prof=$!\ntries=0\nuntil " + started +
      " || [ $tries -eq 3000 ]; do sleep 0.01; tries=$((tries + 1)); done\n" +
      "kill -KILL $prof; wait $prof\n";
  const CommandResult killer = RunCommand({"bash", "-c", script}, "", {"TMPDIR=" + dir});
  CHECK(killer.exit_code == 137);
  CHECK(ReadFile(report) == kPlaceholder);
  // What the killed prof committed: its partial report, which the next run names and keeps.
  std::vector<std::string> partials;
  for (const std::string& name : FilesIn(dir + "/runs")) {
    if (name.rfind("killed.sqlite.partial-", 0) == 0 && name.find("-wal") == std::string::npos &&
        name.find("-shm") == std::string::npos) {
      partials.push_back(dir + "/runs/" + name);
    }
  }
  REQUIRE(partials.size() == 1);

  const CommandResult taken =
      RunCommand({ProfBinary(), "profile", "-t", "none", "-o", dir + "/runs/killed", "sh", program,
                  "2", dir + "/started", dir, "0"});
  CHECK(taken.exit_code == 0);
  CHECK(WithoutProgressNotes(taken.err) ==
        "prof: taking over " + report +
            ", left by a prof run that ended without finishing it; what that run wrote stays in " +
            partials[0] + "\nprof: report written to " + report + "\n");
  CHECK(fs::exists(partials[0]));
  CHECK(RunOfReport(report) == "2");

  // The first program, untraced since its prof died, ends once released.
  std::ofstream(dir + "/release/go");
  const pid_t orphan = std::stoi(ReadFile(dir + "/started/1"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (Running(orphan) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(Running(orphan));
}
