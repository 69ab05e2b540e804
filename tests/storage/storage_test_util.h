// Helpers shared by the storage tests: temporary reports and what they contain.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/report_writer.h"

namespace prof::storage::test {

// A path for a report in a fresh directory of its own ("<dir>/report.sqlite", not yet created).
std::string FreshReportPath(const std::string& test_name);
// ReportWriter::Create that fails the test on error.
std::unique_ptr<ReportWriter> CreateWriter(const std::string& final_path);
// ReportWriter::Finish that fails the test on error.
void FinishWriter(ReportWriter* writer, const SessionInfo& session = SessionInfo());
// The tables of a finished report, sorted by name.
std::vector<std::string> TableNames(const std::string& report_path);
// The names of the files in `directory`, sorted.
std::vector<std::string> FileNames(const std::string& directory);
// A file of tests/storage/data/.
std::string DataFile(const std::string& name);

}  // namespace prof::storage::test
