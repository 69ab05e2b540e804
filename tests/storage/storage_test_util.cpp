#include "tests/storage/storage_test_util.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_support.h"

namespace prof::storage::test {

std::string FreshReportPath(const std::string& test_name) {
  return prof::test::MakeTempDir("storage-" + test_name) + "/report.sqlite";
}

std::unique_ptr<ReportWriter> CreateWriter(const std::string& final_path) {
  StatusOr<std::unique_ptr<ReportWriter>> writer = ReportWriter::Create(final_path);
  INFO(writer.status().message());
  REQUIRE(writer.ok());
  REQUIRE(*writer != nullptr);
  return std::move(writer).value();
}

void FinishWriter(ReportWriter* writer, const SessionInfo& session) {
  const Status status = writer->Finish(session);
  INFO(status.message());
  REQUIRE(status.ok());
}

std::vector<std::string> TableNames(const std::string& report_path) {
  std::vector<std::string> names;
  for (const auto& row : prof::test::QueryRows(
           report_path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    names.push_back(row[0]);
  }
  return names;
}

std::vector<std::string> FileNames(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string DataFile(const std::string& name) {
  return std::string(PROF_STORAGE_TEST_DATA) + "/" + name;
}

}  // namespace prof::storage::test
