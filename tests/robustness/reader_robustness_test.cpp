// prof stats, analyze, diff and export through the prof executable on damaged, foreign and crafted
// report files: one "prof: error: ..." line and the command's error code, or a correct result;
// never a crash, a changed input, a file beside the input, or a partial output.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "tests/robustness/hostile_reports.h"
#include "tests/support/test_support.h"

namespace prof::robustness::test {
namespace {

namespace fs = std::filesystem;
using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;

// prof with `args`.
std::vector<std::string> Args(std::initializer_list<std::string> args) {
  std::vector<std::string> argv = {ProfBinary()};
  argv.insert(argv.end(), args);
  return argv;
}

// One reader invocation: its arguments around the report path, given an empty output directory.
struct ReaderCommand {
  std::string name;
  int error_exit_code;
  std::vector<std::string> (*args)(const std::string& report, const std::string& out_dir);
  // prof stats and analyze read a directory's reports (stats/report_inputs.h).
  bool reads_directories = false;
};

const std::vector<ReaderCommand>& ReaderCommands() {
  static const std::vector<ReaderCommand> commands = {
      {"stats", 1,
       [](const std::string& r, const std::string&) {
         return Args({"stats", r});
       },
       true},
      {"stats_csv_files", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"stats", "-f", "csv", "-o", o + "/out", r});
       },
       true},
      {"analyze", 1,
       [](const std::string& r, const std::string&) {
         return Args({"analyze", r});
       },
       true},
      {"analyze_csv_files", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"analyze", "-r", "gpu_gaps,summary", "-f", "csv", "-o", o + "/out", r});
       },
       true},
      {"diff", 2,
       [](const std::string& r, const std::string&) {
         return Args({"diff", r, r});
       }},
      {"export_chrome", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"export", "--type=chrome", "-o", o + "/out.json", r});
       }},
      {"export_perfetto", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"export", "--type=perfetto", "-o", o + "/out.pftrace", r});
       }},
      {"export_jsonl", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"export", "--type=jsonl", "-o", o + "/out.jsonl.gz", r});
       }},
      {"export_sqlite", 1,
       [](const std::string& r, const std::string& o) {
         return Args({"export", "--type=sqlite", "-o", o + "/out.sqlite", r});
       }},
  };
  return commands;
}

std::set<std::string> FilesIn(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

// Runs `command` on `report` and checks what holds for every file, valid or not.
CommandResult RunChecked(const ReaderCommand& command, const HostileReport& report) {
  const std::string before = ReadBytes(report.path);
  const std::string out_dir = prof::test::MakeTempDir("robust_out_" + report.name);
  const CommandResult result = RunCommand(command.args(report.path, out_dir));
  INFO(command.name << " on " << report.name << ": exit " << result.exit_code
                    << ", stderr: " << result.err);
  CHECK((result.exit_code == 0 || result.exit_code == command.error_exit_code));
  CHECK(ReadBytes(report.path) == before);
  CHECK(FilesIn(fs::path(report.path).parent_path()) ==
        std::set<std::string>{fs::path(report.path).filename()});
  if (result.exit_code != 0) {
    CHECK(result.err.rfind("prof: error: ", 0) == 0);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    CHECK(FilesIn(out_dir).empty());
  }
  for (const std::string& name : FilesIn(out_dir))
    CHECK(name.find(".partial-") == std::string::npos);
  return result;
}

const HostileReport& Find(const std::vector<HostileReport>& reports, const std::string& name) {
  for (const HostileReport& report : reports) {
    if (report.name == name) return report;
  }
  FAIL("no hostile report " << name);
  return reports.front();
}

struct Fixture {
  std::string valid = WriteValidReport("robust_valid");
  std::vector<HostileReport> hostile = WriteHostileReports(valid);
};

Fixture& Reports() {
  static Fixture fixture;
  return fixture;
}

}  // namespace

TEST_CASE("readers give one error line or a result on every hostile report", "[robustness]") {
  for (const HostileReport& report : Reports().hostile) {
    for (const ReaderCommand& command : ReaderCommands()) RunChecked(command, report);
  }
}

TEST_CASE("readers name what is wrong with an unreadable file", "[robustness]") {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"empty", " is not an SQLite database"},
      {"text", " is not an SQLite database"},
      {"header_only", " is not a readable SQLite database: database disk image is malformed"},
      {"truncated_page", " is not a readable SQLite database: database disk image is malformed"},
      {"truncated_half", " is not a readable SQLite database: database disk image is malformed"},
      {"foreign", " is not a prof or nsys report (it has no META_DATA_EXPORT or StringIds table)"},
  };
  for (const auto& [name, reason] : expected) {
    const HostileReport& report = Find(Reports().hostile, name);
    for (const ReaderCommand& command : ReaderCommands()) {
      const CommandResult result = RunChecked(command, report);
      INFO(command.name << " on " << name);
      CHECK(result.exit_code == command.error_exit_code);
      CHECK(result.err == "prof: error: " + report.path + reason + "\n");
    }
  }
}

TEST_CASE("a view that never ends under a table's name is refused, not run", "[robustness]") {
  const HostileReport& report = Find(Reports().hostile, "endless_view");
  for (const ReaderCommand& command : ReaderCommands()) {
    // export --type=sqlite copies the file's bytes and runs nothing in it.
    if (command.name == "export_sqlite") continue;
    // timeout(1) turns a reader that runs the view into a failure (124) instead of a hung test.
    std::vector<std::string> argv = command.args(report.path, prof::test::MakeTempDir("endless"));
    argv.insert(argv.begin(), {"timeout", "20"});
    const CommandResult result = RunCommand(argv);
    INFO(command.name << ": " << result.err);
    CHECK(result.exit_code == command.error_exit_code);
    CHECK(result.err.rfind("prof: error: ", 0) == 0);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    CHECK_THAT(result.err, Catch::EndsWith(report.path + ": NVTX_EVENTS is a view, not a table\n"));
  }
}

TEST_CASE("one huge string that many rows name is cut when read", "[robustness]") {
  // 4 MB named by 100 NVTX ranges: read whole, the export alone would write 400 MB.
  const std::string dir = prof::test::MakeTempDir("huge_string");
  const std::string report = dir + "/huge.sqlite";
  fs::copy_file(WriteValidReport("huge_string_valid"), report);
  ExecSql(report,
          "INSERT INTO StringIds (id, value) VALUES (424242, printf('%.*c', 4000000, 'x'));"
          "UPDATE NVTX_EVENTS SET textId = 424242, text = NULL;"
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99) "
          "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, textId) "
          "SELECT start + i, end + i, eventType, globalTid, textId FROM NVTX_EVENTS, n;");
  const CommandResult exported = RunCommand({"timeout", "120", ProfBinary(), "export", "--type",
                                             "chrome", "-o", dir + "/t.json", report});
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);
  const std::string json = ReadBytes(dir + "/t.json");
  // Each of the 100 names is the string's first 65,536 characters.
  CHECK(json.size() < 100 * 65536 + (1 << 20));
  CHECK(json.find(std::string(65536, 'x')) != std::string::npos);
  CHECK(json.find(std::string(65537, 'x')) == std::string::npos);
  const CommandResult trace = RunCommand({"timeout", "120", ProfBinary(), "stats", "-r",
                                          "nvtx_pushpop_trace", "--format", "csv", report});
  REQUIRE(trace.exit_code == 0);
  CHECK(trace.out.size() < 2 * 100 * 65536 + (1 << 20));  // Name and NameTree
  CHECK(trace.out.find(std::string(65537, 'x')) == std::string::npos);
}

TEST_CASE("huge NVTX messages in their rows are cut when read", "[robustness]") {
  // 100 ranges whose own text is 1 MB each (as a report from elsewhere may hold): each reads as
  // its first 65,536 characters.
  const std::string dir = prof::test::MakeTempDir("huge_messages");
  const std::string report = dir + "/huge.sqlite";
  fs::copy_file(WriteValidReport("huge_messages_valid"), report);
  ExecSql(report,
          "UPDATE NVTX_EVENTS SET textId = NULL, text = printf('%.*c', 1000000, 'y');"
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99) "
          "INSERT INTO NVTX_EVENTS (start, end, eventType, globalTid, text) "
          "SELECT start + i, end + i, eventType, globalTid, text FROM NVTX_EVENTS, n;");
  const int64_t ranges = prof::test::QueryCount(report, "SELECT count(*) FROM NVTX_EVENTS");
  const CommandResult exported = RunCommand({"timeout", "120", ProfBinary(), "export", "--type",
                                             "chrome", "-o", dir + "/t.json", report});
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);
  const std::string json = ReadBytes(dir + "/t.json");
  CHECK(json.size() < static_cast<size_t>(ranges) * 65536 + (1 << 20));
  CHECK(json.find(std::string(65536, 'y')) != std::string::npos);
  CHECK(json.find(std::string(65537, 'y')) == std::string::npos);
  const CommandResult trace = RunCommand({"timeout", "120", ProfBinary(), "stats", "-r",
                                          "nvtx_pushpop_trace", "--format", "csv", report});
  REQUIRE(trace.exit_code == 0);
  CHECK(trace.out.find(std::string(65536, 'y')) != std::string::npos);
  CHECK(trace.out.find(std::string(65537, 'y')) == std::string::npos);
}

TEST_CASE("readers name the system's reason when a report cannot be opened", "[robustness]") {
  const std::string dir = prof::test::MakeTempDir("unopenable");
  const std::string not_a_directory = Reports().valid + "/r.sqlite";
  for (const ReaderCommand& command : ReaderCommands()) {
    const std::vector<std::pair<std::string, std::string>> expected = {
        {dir + "/missing.sqlite", "report file not found: " + dir + "/missing.sqlite"},
        {dir, command.reads_directories ? "directory " + dir + " has no .sqlite reports"
                                        : "cannot read " + dir + ": Is a directory"},
        {not_a_directory, "cannot open " + not_a_directory + ": Not a directory"},
    };
    for (const auto& [path, message] : expected) {
      const CommandResult result = RunCommand(command.args(path, dir));
      INFO(command.name << " on " << path);
      CHECK(result.exit_code == command.error_exit_code);
      CHECK(result.err == "prof: error: " + message + "\n");
    }
  }
}

TEST_CASE("a report prof may not read is refused with the reason", "[robustness]") {
  if (geteuid() == 0) {
    WARN("skipped: root reads files whatever their permissions");
    return;
  }
  const std::string report = prof::test::MakeTempDir("unreadable") + "/r.sqlite";
  WriteBytes(report, ReadBytes(Reports().valid));
  REQUIRE(chmod(report.c_str(), 0) == 0);
  const CommandResult result = RunCommand(Args({"stats", report}));
  CHECK(result.exit_code == 1);
  CHECK(result.err == "prof: error: cannot open " + report + ": Permission denied\n");
}

TEST_CASE("a query on missing columns fails with SQLite's reason on one line", "[robustness]") {
  const HostileReport& report = Find(Reports().hostile, "missing_columns");
  const CommandResult stats = RunCommand(Args({"stats", "-r", "nvtx_sum", report.path}));
  CHECK(stats.exit_code == 1);
  CHECK(stats.err == "prof: error: report nvtx_sum failed on " + report.path +
                         ": no such column: ne.eventType\n");
  const CommandResult diff = RunCommand(Args({"diff", report.path, report.path}));
  CHECK(diff.exit_code == 2);
  CHECK(diff.err ==
        "prof: error: gpu_busy items failed on " + report.path + ": no such column: deviceId\n");
}

TEST_CASE("odd paths and names with quotes and SQL are read as data", "[robustness]") {
  const std::string valid_sum = RunCommand(Args({"stats", "-f", "csv", Reports().valid})).out;
  const HostileReport& odd = Find(Reports().hostile, "odd_path");
  for (const ReaderCommand& command : ReaderCommands()) {
    CHECK(RunChecked(command, odd).exit_code == 0);
  }
  CHECK(RunCommand(Args({"stats", "-f", "csv", odd.path})).out == valid_sum);
  CHECK(RunCommand(Args({"diff", Reports().valid, odd.path})).exit_code == 0);

  const HostileReport& quotes = Find(Reports().hostile, "quotes_and_sql");
  const CommandResult nvtx =
      RunCommand(Args({"stats", "-r", "nvtx_sum", "-f", "csv", quotes.path}));
  CHECK(nvtx.exit_code == 0);
  CHECK_THAT(nvtx.out, Catch::Contains(",\":a'b\"\"c); DROP TABLE NVTX_EVENTS; --\"\n"));
  CHECK(RunCommand(Args({"analyze", "-r", "gpu_gaps:start=0", quotes.path})).exit_code == 0);
}

TEST_CASE("a report whose header says WAL is read without files beside it", "[robustness]") {
  const HostileReport& wal = Find(Reports().hostile, "wal_header");
  for (const ReaderCommand& command : ReaderCommands()) {
    CHECK(RunChecked(command, wal).exit_code == 0);
  }
}

TEST_CASE("durations of extreme start and end values saturate instead of wrapping",
          "[robustness]") {
  const HostileReport& report = Find(Reports().hostile, "extreme_numbers");
  const std::string out = prof::test::MakeTempDir("robust_extreme") + "/out.json";
  REQUIRE(RunCommand(Args({"export", "--type=chrome", "-o", out, report.path})).exit_code == 0);
  const std::string trace = ReadBytes(out);
  // The NVTX range runs from INT64_MIN to INT64_MAX, the OS runtime call the other way round.
  CHECK_THAT(trace, Catch::Contains("\"dur\":9223372036854775.807"));
  CHECK_THAT(trace, Catch::Contains("\"dur\":-9223372036854775.808"));
}

}  // namespace prof::robustness::test
