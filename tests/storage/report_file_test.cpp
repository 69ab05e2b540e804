// The report file's life: a temporary name while written, renamed at Finish, removed on Abandon;
// and what Finish adds (session tables, metadata, indexes).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "storage/global_id.h"
#include "tests/storage/storage_test_util.h"
#include "tests/support/test_support.h"

namespace prof::storage {
namespace {

using prof::test::QueryRows;
using test::CreateWriter;
using test::FileNames;
using test::FinishWriter;
using test::FreshReportPath;
using Rows = std::vector<std::vector<std::string>>;
using Strings = std::vector<std::string>;

std::string PartialName() { return "report.sqlite.partial-" + std::to_string(getpid()); }

std::string DirectoryOf(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

TEST_CASE("the report has a temporary name until Finish renames it", "[storage][file]") {
  const std::string path = FreshReportPath("file-rename");
  const std::string dir = DirectoryOf(path);
  auto writer = CreateWriter(path);
  writer->Add<kMetaDataCaptureTable>({"DEVICE_ID", "Local (CLI)"});
  REQUIRE(writer->Commit().ok());
  // The partial file and its write-ahead log; a finished report is one file.
  CHECK(FileNames(dir) == Strings{PartialName(), PartialName() + "-wal"});
  FinishWriter(writer.get());
  CHECK(FileNames(dir) == Strings{"report.sqlite"});
  CHECK(QueryRows(path, "SELECT value FROM META_DATA_CAPTURE") == Rows{{"Local (CLI)"}});

  const Status again = writer->Finish(SessionInfo());
  REQUIRE_FALSE(again.ok());
  CHECK(again.message() == "report " + path + " was already finished or abandoned");
  CHECK(FileNames(dir) == Strings{"report.sqlite"});
}

TEST_CASE("Finish replaces an existing file", "[storage][file]") {
  const std::string path = FreshReportPath("file-replace");
  std::ofstream(path) << "an older report";
  auto writer = CreateWriter(path);
  FinishWriter(writer.get());
  CHECK(FileNames(DirectoryOf(path)) == Strings{"report.sqlite"});
  CHECK(QueryRows(path, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_NAME'") ==
        Rows{{"prof"}});
}

TEST_CASE("Abandon and destruction without Finish delete the temporary file", "[storage][file]") {
  const std::string path = FreshReportPath("file-abandon");
  const std::string dir = DirectoryOf(path);
  SECTION("Abandon") {
    auto writer = CreateWriter(path);
    writer->Add<kMetaDataCaptureTable>({"a", "b"});
    writer->Abandon();
    CHECK(FileNames(dir).empty());
    // Rows after Abandon go nowhere; the first failure is kept and reported.
    writer->Add<kNvtxEventsTable>(NvtxEventRow());
    const Status commit = writer->Commit();
    REQUIRE_FALSE(commit.ok());
    CHECK(commit.message() == "the report is closed");
    CHECK_FALSE(writer->Finish(SessionInfo()).ok());
    CHECK(FileNames(dir).empty());
  }
  SECTION("destructor") {
    CreateWriter(path)->Add<kMetaDataCaptureTable>({"a", "b"});
    CHECK(FileNames(dir).empty());
  }
}

TEST_CASE("Create fails with the path when the directory does not exist", "[storage][file]") {
  const std::string path = FreshReportPath("file-no-dir") + ".d/missing/report.sqlite";
  const StatusOr<std::unique_ptr<ReportWriter>> writer = ReportWriter::Create(path);
  REQUIRE_FALSE(writer.ok());
  CHECK(writer.status().message() == "cannot create report: cannot open " + path + ".partial-" +
                                         std::to_string(getpid()) +
                                         ": unable to open database file");
}

TEST_CASE("a failed rename fails Finish and leaves no temporary file", "[storage][file]") {
  const std::string path = FreshReportPath("file-rename-fails");
  std::filesystem::create_directories(path + "/not-empty");  // a directory where the file goes
  auto writer = CreateWriter(path);
  const Status status = writer->Finish(SessionInfo());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::StartsWith("cannot write report " + path +
                                                 ": cannot rename " + path + ".partial-"));
  CHECK(FileNames(DirectoryOf(path)) == Strings{"report.sqlite"});
  CHECK(std::filesystem::is_directory(path));
}

TEST_CASE("Finish writes the session tables and builds the indexes", "[storage][file]") {
  const std::string path = FreshReportPath("file-session");
  auto writer = CreateWriter(path);
  NvtxEventRow range;
  range.start = 1;
  range.end = 2;
  range.event_type = 59;
  range.global_tid = GlobalTid(490, 490);
  writer->Add<kNvtxEventsTable>(range);
  SessionInfo session;
  session.prof_version = "0.1.0";
  session.command_line = "python3 torch_mix.py";
  session.trace_options = "nvtx";
  session.exit_status = 0;
  session.duration_ns = 6327000000;
  session.data_problems = {{"dropped_records", "2"}, {"torn_records", "0"}};
  session.utc_epoch_ns_at_start = 1796226914772304646;
  setenv("TZ", "XYZ-1", 1);  // local time is UTC+1 while Finish runs
  tzset();
  FinishWriter(writer.get(), session);
  unsetenv("TZ");
  tzset();

  CHECK(QueryRows(path, "SELECT * FROM TARGET_INFO_SESSION_START_TIME") ==
        Rows{{"1796226914772304646", "2026-12-02T15:55:14", "2026-12-02T16:55:14"}});
  CHECK(QueryRows(path, "SELECT name, value FROM PROF_SESSION ORDER BY rowid") ==
        Rows{{"prof_version", "0.1.0"},
             {"command_line", "python3 torch_mix.py"},
             {"trace_options", "nvtx"},
             {"osrt_threshold_ns", "0"},
             {"environment_set", ""},
             {"exit_status", "0"},
             {"duration_ns", "6327000000"},
             {"dropped_records", "2"},
             {"torn_records", "0"},
             {"utc_epoch_ns_at_start", "1796226914772304646"}});
  CHECK(QueryRows(path,
                  "SELECT name, value FROM META_DATA_EXPORT WHERE name IN "
                  "('EXPORT_PRODUCT_NAME', 'EXPORT_SCHEMA_VERSION') ORDER BY rowid") ==
        Rows{{"EXPORT_PRODUCT_NAME", "prof"}, {"EXPORT_SCHEMA_VERSION", "3.20.3"}});
  CHECK(QueryRows(path, "SELECT count(*) FROM META_DATA_EXPORT") == Rows{{"12"}});
  // Like nsys's export, no index beyond the primary keys': building one cost more time at the
  // program's exit (1.7 s for 3 M rows) and a fifth of the file, for no report that needed it.
  CHECK(QueryRows(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index'") == Rows{{"0"}});
}

}  // namespace
}  // namespace prof::storage
