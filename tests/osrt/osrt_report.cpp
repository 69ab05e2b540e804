#include "tests/osrt/osrt_report.h"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "tests/support/test_support.h"

namespace prof::test {

OsrtRun ProfileWithOsrt(const std::string& dir, const std::string& program,
                        const std::vector<std::string>& args,
                        const std::vector<std::string>& prof_options) {
  OsrtRun run;
  run.report = dir + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=osrt", "-o", run.report};
  argv.insert(argv.end(), prof_options.begin(), prof_options.end());
  argv.push_back(TestProgram(program));
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandResult result = RunCommand(argv);
  INFO("prof stdout:\n" << result.out << "\nprof stderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  run.out = result.out;
  return run;
}

std::vector<OsrtRow> OsrtRows(const std::string& report, const std::string& name) {
  const auto tables =
      QueryRows(report, "SELECT count(*) FROM sqlite_master WHERE name = 'OSRT_API'");
  if (tables.at(0).at(0) == "0") return {};
  const auto rows = QueryRows(report,
                              "SELECT s.value, o.start, o.end, o.globalTid, o.returnValue, "
                              "o.nestingLevel FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                              "WHERE s.value = '" +
                                  name + "' ORDER BY o.start");
  std::vector<OsrtRow> result;
  for (const auto& row : rows) {
    result.push_back({row[0], std::stoll(row[1]), std::stoll(row[2]), std::stoll(row[3]),
                      std::stoll(row[4]), std::stoll(row[5])});
  }
  return result;
}

std::vector<OsrtRow> OsrtRowsOfThread(const std::string& report, const std::string& name,
                                      int64_t global_tid) {
  std::vector<OsrtRow> result;
  for (const OsrtRow& row : OsrtRows(report, name)) {
    if (row.global_tid == global_tid) result.push_back(row);
  }
  return result;
}

int64_t ValueAfter(const std::string& text, const std::string& key) {
  const size_t at = text.find(key);
  INFO("no '" << key << "' in program output:\n" << text);
  REQUIRE(at != std::string::npos);
  return std::strtoll(text.c_str() + at + key.size(), nullptr, 10);
}

std::vector<std::string> CallchainFrames(const std::string& report, const std::string& id) {
  std::vector<std::string> frames;
  for (const auto& row :
       QueryRows(report,
                 "SELECT s.value || '|' || m.value || '|' || c.unresolved || '|' || c.unwindMethod "
                 "FROM OSRT_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON "
                 "m.id = c.module WHERE c.id = " +
                     id + " ORDER BY c.stackDepth")) {
    frames.push_back(row.at(0));
  }
  return frames;
}

}  // namespace prof::test
