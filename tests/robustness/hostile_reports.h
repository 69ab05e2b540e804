// Report files that readers must survive: damaged, foreign and maliciously crafted SQLite files,
// built from one small valid report.
#pragma once

#include <string>
#include <vector>

namespace prof::robustness::test {

struct HostileReport {
  std::string name;  // what is wrong with it, for test output
  std::string path;
};

// A valid report with a kernel, a copy, a runtime call, an NVTX range and an OS runtime call.
std::string WriteValidReport(const std::string& name);

// Writes each hostile variant into its own fresh directory (alone there, so that tests can see
// any file a reader leaves beside it).
std::vector<HostileReport> WriteHostileReports(const std::string& valid_report);

// Runs `sql` on the SQLite file at `path` (created when missing); fails the test on error.
void ExecSql(const std::string& path, const std::string& sql);

std::string ReadBytes(const std::string& path);
void WriteBytes(const std::string& path, const std::string& bytes);

}  // namespace prof::robustness::test
