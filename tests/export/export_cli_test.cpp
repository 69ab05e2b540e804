// `prof export` end to end: options spelled as nsys export's, the default output name, and one
// clear error line with exit status 1 (and no output file) for every kind of bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/number_text.h"
#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::exporter::test {
namespace {

namespace fs = std::filesystem;
using prof::test::CommandResult;

CommandResult Prof(std::vector<std::string> args) {
  args.insert(args.begin(), {prof::test::ProfBinary(), "export"});
  return prof::test::RunCommand(args);
}

// The names in `dir`, sorted.
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST_CASE("export names its output after the report and refuses to overwrite it", "[export][cli]") {
  const std::string report = stats::test::MakeNvtxReport("export_cli_default");
  const std::string dir = fs::path(report).parent_path().string();
  CommandResult result = Prof({"--type", "chrome", report});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  // What was written and its size.
  const std::string json = dir + "/export_cli_default.json";
  CHECK(result.err == "prof: wrote " + json + " (" + ByteSizeText(fs::file_size(json)) + ")\n");
  CHECK(fs::file_size(json) >= 1000);  // so the size reads "x.y kB"
  CHECK(result.err.find(" kB)\n") != std::string::npos);
  CHECK(Files(dir) ==
        std::vector<std::string>{"export_cli_default.json", "export_cli_default.sqlite"});

  result = Prof({"--type=chrome", report});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "prof: error: " + dir +
                          "/export_cli_default.json already exists (use --force-overwrite to "
                          "replace it)\n");
  result = Prof({"-t", "chrome", "-f", "true", "-q", report});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());

  result = Prof({"--type", "jsonl", "--gzip", "true", "-q", report});
  CHECK(result.exit_code == 0);
  CHECK(Files(dir) == std::vector<std::string>{"export_cli_default.json",
                                               "export_cli_default.jsonl.gz",
                                               "export_cli_default.sqlite"});
}

TEST_CASE("export --type jsonlines is nsys's spelling of jsonl", "[export][cli]") {
  const std::string report = stats::test::MakeNvtxReport("export_cli_jsonlines");
  const std::string dir = prof::test::MakeTempDir("export_cli_jsonlines_out");
  REQUIRE(Prof({"--type", "jsonl", "-q", "-o", dir + "/a.jsonl", report}).exit_code == 0);
  const CommandResult result = Prof({"--type", "jsonlines", "-q", "-o", dir + "/b.jsonl", report});
  CHECK(result.exit_code == 0);
  CHECK(stats::test::ReadFile(dir + "/b.jsonl") == stats::test::ReadFile(dir + "/a.jsonl"));
  CHECK(!stats::test::ReadFile(dir + "/a.jsonl").empty());
}

TEST_CASE("export --type sqlite copies the report", "[export][cli]") {
  const std::string report = stats::test::MakeNvtxReport("export_cli_sqlite");
  const std::string copy = prof::test::MakeTempDir("export_cli_sqlite_out") + "/copy.sqlite";
  CommandResult result = Prof({"--type", "sqlite", "-o", copy, "-q", report});
  CHECK(result.exit_code == 0);
  CHECK(stats::test::ReadFile(copy) == stats::test::ReadFile(report));

  // Its default name is the report itself.
  result = Prof({"--type", "sqlite", "-f", "true", report});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "prof: error: the output " + report +
                          " is one of the reports read (choose another with -o)\n");
}

TEST_CASE("export rejects bad input with one error line and writes nothing", "[export][cli]") {
  const std::string dir = prof::test::MakeTempDir("export_cli_errors");
  const std::string report = stats::test::MakeNvtxReport("export_cli_errors_report");
  WriteText(dir + "/text.sqlite", "not a database at all, just text that is long enough......");
  const std::string not_report = dir + "/plain.sqlite";
  REQUIRE(prof::test::RunCommand({"sqlite3", not_report, "CREATE TABLE t (x)"}).exit_code == 0);
  // A report whose OSRT_API lacks nsys's columns fails while the output is being written.
  const std::string broken = dir + "/broken.sqlite";
  REQUIRE(prof::test::RunCommand({"sqlite3", broken,
                                  "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);"
                                  "CREATE TABLE OSRT_API (x INTEGER)"})
              .exit_code == 0);

  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"--type", "hdf", "-o", dir + "/out", report},
       "nsys export type 'hdf' is not implemented by prof; valid types: chrome, perfetto, jsonl "
       "(alias jsonlines), folded, sqlite"},
      {{"--type", "json", "-o", dir + "/out", report},
       "nsys export type 'json' is not implemented by prof; valid types: chrome, perfetto, jsonl "
       "(alias jsonlines), folded, sqlite"},
      {{"--type", "xml", "-o", dir + "/out", report},
       "unknown export type 'xml'; valid types: chrome, perfetto, jsonl (alias jsonlines), "
       "folded, sqlite"},
      {{"--type", "chrome", "-o", dir + "/out.json", dir + "/missing.sqlite"},
       "report file not found: " + dir + "/missing.sqlite"},
      {{"--type", "chrome", "-o", dir + "/out.json", dir + "/text.sqlite"},
       dir + "/text.sqlite is not an SQLite database"},
      {{"--type", "chrome", "-o", dir + "/out.json", not_report},
       not_report +
           " is not a prof or nsys report (it has no META_DATA_EXPORT or StringIds table)"},
      {{"--type", "perfetto", "-o", dir + "/out.pftrace", broken},
       "cannot read " + broken + ": no such column: globalTid (in table_threads.sql)"},
      {{"--type", "chrome", "-o", dir + "/no-such-dir/out.json", report},
       "cannot write " + dir + "/no-such-dir/out.json: No such file or directory"},
      {{"--type", "chrome", "-o", dir, report}, "cannot write " + dir + ": it is a directory"},
      {{"--type", "chrome", "--colour", report},
       "unknown option --colour for prof export; see prof export --help"},
      {{"-o", dir + "/out.json", report}, "missing --type; see prof export --help"},
  };
  for (const Case& c : cases) {
    INFO(c.args[1] + " " + c.args.back());
    const CommandResult result = Prof(c.args);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err == "prof: error: " + c.error + "\n");
  }
  CHECK(Files(dir) == std::vector<std::string>{"broken.sqlite", "plain.sqlite", "text.sqlite"});
}

}  // namespace
}  // namespace prof::exporter::test
