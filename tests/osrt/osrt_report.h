// End-to-end helpers: profile a test program with `prof profile --trace=osrt` and read back the
// OSRT_API rows of one function, joined to StringIds, and the frames of a call's backtrace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::test {

struct OsrtRow {
  std::string name;
  int64_t start = 0;
  int64_t end = 0;
  int64_t global_tid = 0;
  int64_t return_value = 0;
  int64_t nesting_level = 0;

  int64_t duration() const { return end - start; }
};

struct OsrtRun {
  std::string report;  // the report's path
  std::string out;     // the program's standard output
};

// Profiles tests/bin/<program> with `args` into <dir>/r.sqlite, adding `prof_options` after
// --trace=osrt. Fails the test unless prof and the program exit 0.
OsrtRun ProfileWithOsrt(const std::string& dir, const std::string& program,
                        const std::vector<std::string>& args = {},
                        const std::vector<std::string>& prof_options = {});

// The OSRT_API rows named `name`, by start time; none when the report has no OSRT_API table.
std::vector<OsrtRow> OsrtRows(const std::string& report, const std::string& name);

// As OsrtRows, restricted to thread `global_tid`.
std::vector<OsrtRow> OsrtRowsOfThread(const std::string& report, const std::string& name,
                                      int64_t global_tid);

// The frames of OSRT_CALLCHAINS callchain `id`, innermost first: "symbol|module|unresolved|
// unwindMethod".
std::vector<std::string> CallchainFrames(const std::string& report, const std::string& id);

// The decimal integer that follows `key` (e.g. "pid=") in `text`; fails the test when absent.
int64_t ValueAfter(const std::string& text, const std::string& key);

}  // namespace prof::test
