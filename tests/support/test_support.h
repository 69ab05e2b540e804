// Shared helpers for end-to-end tests: run a command (prof or a test program) and read a report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::test {

struct CommandResult {
  int exit_code = -1;  // the exit code, or 128+N when signal N killed it
  std::string out;
  std::string err;
};

// Runs argv[0] (searched in PATH) with `argv`, feeding `stdin_data`, and collects its output.
// `env` entries ("A=B") are added to the inherited environment, replacing a variable of the same
// name.
CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& stdin_data = "",
                         const std::vector<std::string>& env = {});

// Every row of `sql` on the SQLite file `db_path`, each column as text; NULL becomes "NULL".
// Fails the current Catch2 test when the file cannot be opened or the query fails.
std::vector<std::vector<std::string>> QueryRows(const std::string& db_path, const std::string& sql);

// The one value of a query that returns one row of one column (a count), as an integer; fails the
// current test otherwise.
int64_t QueryCount(const std::string& db_path, const std::string& sql);

// The values of the "<key>=<value>" lines of a program's output (pids it printed), in order.
std::vector<std::string> PrintedValues(const std::string& out, const std::string& key);

// A fresh empty directory for one test, under the build tree's test area. It is removed when the
// test case ends with every assertion passed and kept for inspection when one failed.
std::string MakeTempDir(const std::string& test_name);

// The names (not paths) of the entries of `directory`, sorted.
std::vector<std::string> FileNamesIn(const std::string& directory);
// The bytes of the file at `path` (empty when it cannot be read).
std::string FileBytes(const std::string& path);

// Called by the test runner as each test case ends: removes (when `passed`) or keeps the
// directories MakeTempDir made during it. Reports such as the overload test's reach 1 GB, and the
// sanitizer builds run every test again: kept directories once filled CI's disk.
void EndTempDirs(bool passed);

// prof profile's stderr without its progress notes - the start line, the report's size and events
// after "report written to <path>", the finish time (profile_console_test checks those) - so that
// tests of other behaviour compare the rest exactly.
std::string WithoutProgressNotes(const std::string& err);

// Absolute paths of build artifacts, passed in by CMake as compile definitions.
std::string ProfBinary();  // <build>/bin/prof
// Debian's interpreter, the one python3-torch installs torch for (not a pyenv or venv python3 that
// may come first in PATH).
inline constexpr const char* kDebianPython = "/usr/bin/python3";
std::string TestProgram(const std::string& name);  // <build>/tests/bin/<name>

// The environment (RunCommand's `env`) of a program that must die of SIGSEGV as it would without
// prof: in the AddressSanitizer build, prof's preloaded libraries bring ASan's SIGSEGV handler
// into the program, which would turn the signal into an ASan report and exit(1). Empty elsewhere.
std::vector<std::string> SegvDiesAsUsual();

}  // namespace prof::test
