// End to end: `prof profile` with --delay, --duration, --kill and --capture-range=nvtx on a program
// with known timing (capture_program.c): which NVTX and OS-runtime rows land in which report, how
// the program ends, and the one-line errors for bad values. Timing margins are 0.25 s or more.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;
namespace fs = std::filesystem;

namespace {

using Strings = std::vector<std::string>;

CommandResult Profile(const std::string& report, const Strings& prof_options,
                      const Strings& program_args, const Strings& env = {}) {
  Strings argv = {ProfBinary(), "profile", "-q", "-t", "nvtx,osrt", "-o", report};
  argv.insert(argv.end(), prof_options.begin(), prof_options.end());
  argv.push_back(TestProgram("capture_program"));
  argv.insert(argv.end(), program_args.begin(), program_args.end());
  return RunCommand(argv, "", env);
}

// nsys's exports, and prof's reports, create only the tables that hold rows.
bool HasTable(const std::string& report, const std::string& table) {
  return !QueryRows(report,
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")
              .empty();
}

Strings Column(const std::string& report, const std::string& sql) {
  Strings values;
  for (const auto& row : QueryRows(report, sql)) values.push_back(row.at(0));
  return values;
}

// Marks and ranges (not domain rows), by time, with registered messages resolved.
Strings NvtxMessages(const std::string& report) {
  if (!HasTable(report, "NVTX_EVENTS")) return {};
  return Column(report,
                "SELECT COALESCE(text, (SELECT value FROM StringIds WHERE id = textId)) "
                "FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60) ORDER BY start");
}

Strings OsrtCalls(const std::string& report) {
  if (!HasTable(report, "OSRT_API")) return {};
  return Column(
      report,
      "SELECT s.value FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId ORDER BY o.start");
}

Strings Metadata(const std::string& report, const std::string& name) {
  return Column(report, "SELECT value FROM META_DATA_CAPTURE WHERE name = '" + name + "'");
}

std::string ExitStatus(const std::string& report) {
  return Column(report, "SELECT value FROM PROF_SESSION WHERE name = 'exit_status'").at(0);
}

int64_t Number(const std::string& text) { return std::stoll(text); }

}  // namespace

TEST_CASE("a delay records only what happens after it") {
  const std::string report = MakeTempDir("capture_delay") + "/delay.sqlite";
  CommandResult result = Profile(report, {"--delay=0.75"}, {"phases"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(NvtxMessages(report) == Strings{"phase2", "phase3"});
  // The sleep that began at 0.5 s ended inside the window but started before it: left out.
  CHECK(OsrtCalls(report) == Strings{"usleep", "usleep"});
  CHECK(Metadata(report, "DELAY_MS") == Strings{"750"});
  const Strings start = Metadata(report, "CAPTURE_WINDOW_START_NS");
  REQUIRE(start.size() == 1);
  CHECK(Number(start[0]) >= 750'000'000);
  CHECK(Number(start[0]) < 950'000'000);
  CHECK(Metadata(report, "CAPTURE_WINDOW_STOP_NS").empty());
}

TEST_CASE("a duration with kill none stops collecting and lets the program finish") {
  const std::string report = MakeTempDir("capture_duration") + "/duration.sqlite";
  CommandResult result = Profile(report, {"--duration=0.75", "--kill=none"}, {"phases"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(ExitStatus(report) == "0");
  CHECK(NvtxMessages(report) == Strings{"phase0", "phase1"});
  // The second sleep was still running when collection stopped: only the first is recorded.
  CHECK(OsrtCalls(report) == Strings{"usleep"});
  CHECK(Metadata(report, "DURATION_MS") == Strings{"750"});
  CHECK(Metadata(report, "KILL_SIGNAL") == Strings{"none"});
  const Strings stop = Metadata(report, "CAPTURE_WINDOW_STOP_NS");
  REQUIRE(stop.size() == 1);
  CHECK(Number(stop[0]) >= 750'000'000);
  CHECK(Number(stop[0]) < 950'000'000);
}

TEST_CASE("delay and duration together keep only the window between them") {
  const std::string report = MakeTempDir("capture_delay_duration") + "/window.sqlite";
  CommandResult result =
      Profile(report, {"--delay=0.75", "--duration=0.5", "--kill=none"}, {"phases"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(NvtxMessages(report) == Strings{"phase2"});
  CHECK(OsrtCalls(report).empty());
}

TEST_CASE("the end of the duration ends a program that runs forever with the kill signal") {
  const std::string dir = MakeTempDir("capture_kill");
  const std::pair<std::string, int> cases[] = {
      {"", 143}, {"--kill=sigkill", 137}, {"--kill=10", 138}};
  for (const auto& [kill, code] : cases) {
    const std::string report = dir + "/kill" + std::to_string(code) + ".sqlite";
    Strings options = {"--duration=0.5"};
    if (!kill.empty()) options.push_back(kill);
    CommandResult result = Profile(report, options, {"forever"});
    INFO(kill << ": " << result.err);
    CHECK(result.exit_code == code);
    CHECK(ExitStatus(report) == std::to_string(code));
    CHECK(NvtxMessages(report) == Strings{"alive"});
  }
}

TEST_CASE("nvtx capture records exactly the first matching push/pop range") {
  const std::string report = MakeTempDir("capture_nvtx_stop") + "/step.sqlite";
  CommandResult result =
      Profile(report, {"-c", "nvtx", "-p", "step", "--capture-range-end=stop"}, {"ranges", "0"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(NvtxMessages(report) == Strings{"step", "inside-0"});
  CHECK(OsrtCalls(report) == Strings{"usleep"});
  CHECK(Metadata(report, "CAPTURE_RANGE") == Strings{"nvtx"});
  CHECK(Metadata(report, "CAPTURE_RANGE_END") == Strings{"stop"});
  CHECK(Metadata(report, "NVTX_CAPTURE") == Strings{"step"});
  // The range's own times are the window's.
  const auto range = QueryRows(report, "SELECT start, end FROM NVTX_EVENTS WHERE eventType = 59");
  REQUIRE(range.size() == 1);
  CHECK(Metadata(report, "CAPTURE_WINDOW_START_NS") == Strings{range[0][0]});
  CHECK(Metadata(report, "CAPTURE_WINDOW_STOP_NS") == Strings{range[0][1]});
}

TEST_CASE("capture range end repeat:N writes one numbered report per captured range") {
  const std::string dir = MakeTempDir("capture_repeat");
  CommandResult result = Profile(
      dir + "/run", {"-c", "nvtx", "-p", "step", "--capture-range-end=repeat:2"}, {"ranges", "0"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(NvtxMessages(dir + "/run.1.sqlite") == Strings{"step", "inside-0"});
  CHECK(NvtxMessages(dir + "/run.2.sqlite") == Strings{"step", "inside-1"});
  CHECK(OsrtCalls(dir + "/run.2.sqlite") == Strings{"usleep"});
  CHECK(Metadata(dir + "/run.2.sqlite", "CAPTURE_RANGE_END") == Strings{"repeat:2"});
  CHECK_FALSE(fs::exists(dir + "/run.sqlite"));
  CHECK_FALSE(fs::exists(dir + "/run.3.sqlite"));
}

TEST_CASE("a repeated capture whose second report cannot be written fails and keeps the first") {
  const std::string dir = MakeTempDir("capture_repeat_fails");
  { std::ofstream(dir + "/run.2.sqlite") << "not mine"; }  // exists, and no -f
  Strings argv = {ProfBinary(),
                  "profile",
                  "-t",
                  "nvtx,osrt",
                  "-o",
                  dir + "/run",
                  "-c",
                  "nvtx",
                  "-p",
                  "step",
                  "--capture-range-end=repeat:2",
                  TestProgram("capture_program"),
                  "ranges",
                  "0"};
  CommandResult result = RunCommand(argv);
  INFO(result.err);
  // The program exited 0, but prof failed to write a report: not a success.
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("report written to " + dir + "/run.1.sqlite") != std::string::npos);
  CHECK(result.err.find("prof: error: ") != std::string::npos);
  CHECK(NvtxMessages(dir + "/run.1.sqlite") == Strings{"step", "inside-0"});
  std::ifstream kept(dir + "/run.2.sqlite");
  CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == "not mine");
}

TEST_CASE("unregistered messages trigger only with NSYS_NVTX_PROFILER_REGISTER_ONLY=0") {
  const std::string dir = MakeTempDir("capture_register_only");
  CommandResult result = Profile(dir + "/all",
                                 {"-c", "nvtx", "-p", "step", "--capture-range-end=repeat", "-e",
                                  "NSYS_NVTX_PROFILER_REGISTER_ONLY=0"},
                                 {"ranges", "0"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(NvtxMessages(dir + "/all.3.sqlite") == Strings{"step", "inside-2"});
  CHECK(NvtxMessages(dir + "/all.4.sqlite") == Strings{"step", "unregistered"});
  CHECK_FALSE(fs::exists(dir + "/all.5.sqlite"));
}

TEST_CASE("a start/end range in a named domain with stop-shutdown ends the program with SIGTERM") {
  const std::string report = MakeTempDir("capture_shutdown") + "/epoch.sqlite";
  CommandResult result = Profile(report, {"-c", "nvtx", "-p", "epoch@trainer"}, {"ranges", "3000"});
  INFO(result.err);
  CHECK(result.exit_code == 143);
  CHECK(NvtxMessages(report) == Strings{"epoch", "in-epoch"});
  CHECK(Metadata(report, "CAPTURE_RANGE_END") == Strings{"stop-shutdown"});
}

TEST_CASE("RANGE@* matches any domain and a bare RANGE only the default domain") {
  const std::string dir = MakeTempDir("capture_domains");
  CommandResult any = Profile(
      dir + "/any", {"-c", "nvtx", "-p", "epoch@*", "--capture-range-end=stop"}, {"ranges", "0"});
  CHECK(any.exit_code == 0);
  CHECK(NvtxMessages(dir + "/any.sqlite") == Strings{"epoch", "in-epoch"});
  CommandResult none = Profile(dir + "/none", {"-c", "nvtx", "-p", "epoch"}, {"ranges", "0"});
  CHECK(none.exit_code == 0);
  CHECK(NvtxMessages(dir + "/none.sqlite").empty());
  CHECK(OsrtCalls(dir + "/none.sqlite").empty());
  CHECK(Metadata(dir + "/none.sqlite", "CAPTURE_WINDOW_START_NS").empty());
}

TEST_CASE("bad capture values are one-line errors and nothing runs") {
  const std::string dir = MakeTempDir("capture_errors");
  const std::pair<Strings, std::string> cases[] = {
      {{"--delay=-1"}, "--delay expects a number of seconds >= 0, got '-1'"},
      {{"--duration=0"}, "--duration expects a number of seconds > 0, got '0'"},
      {{"--kill=sigfoo"},
       "unknown --kill signal 'sigfoo'; expected none, sigterm, sigkill or a signal number 1-64"},
      {{"-p", "step"}, "--nvtx-capture needs --capture-range=nvtx"},
      {{"-c", "nvtx"}, "--capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN]"},
      {{"-c", "hotkey"},
       "--capture-range=hotkey is not supported: prof does not trace graphics programs' keys"},
      {{"--capture-range-end=repeat"},
       "--capture-range-end needs --capture-range=cudaProfilerApi or nvtx"},
      {{"-c", "nvtx", "-p", "step", "--capture-range-end=repeat:0"},
       "--capture-range-end=repeat:N expects a count N >= 1, got 'repeat:0'"},
      {{"-c", "nvtx", "-p", "step@"},
       "--nvtx-capture expects RANGE, RANGE@DOMAIN or RANGE@*, got 'step@'"},
  };
  for (const auto& [options, message] : cases) {
    CommandResult result = Profile(dir + "/bad", options, {"phases"});
    CHECK(result.exit_code == 1);
    CHECK(result.err == "prof: error: " + message + "\n");
    CHECK(result.out.empty());
  }
  CHECK(fs::is_empty(dir));
}
