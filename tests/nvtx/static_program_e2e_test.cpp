// A statically linked program under `prof profile`: prof warns that it cannot enter it, the program
// runs to its end with its output intact (NVTX's dlopen of libprof_nvtx.so must not crash it), and
// the dynamically linked program it starts is traced as usual.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collector/executable_linkage.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

std::string WriteScript(const std::string& dir, const std::string& name,
                        const std::string& first_line) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << first_line << "\necho script\n";
  chmod(path.c_str(), 0755);
  return path;
}

std::string StaticWarning(const std::string& executable) {
  return "prof: warning: " + executable +
         " is statically linked: its own calls are not traced (processes it starts are)\n";
}

// The tid printed in the program's "tid <name> <tid>" line.
std::string PrintedTid(const std::string& output, const std::string& thread) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("tid " + thread + " ", 0) == 0) return line.substr(5 + thread.size());
  }
  FAIL("no tid line for " << thread << " in: " << output);
  return "";
}

}  // namespace

TEST_CASE("the linkage reader tells static executables and their scripts from dynamic ones",
          "[nvtx][static]") {
  const std::string dir = MakeTempDir("static_linkage");
  const std::string static_program = TestProgram("nvtx_static_program");
  CHECK(collector::StaticallyLinkedExecutable(static_program) == static_program);
  CHECK(collector::StaticallyLinkedExecutable(TestProgram("nvtx_threads_program")) == std::nullopt);
  CHECK(collector::StaticallyLinkedExecutable(
            WriteScript(dir, "static.sh", "#! " + static_program + " arg")) == static_program);
  CHECK(collector::StaticallyLinkedExecutable(WriteScript(dir, "dynamic.sh", "#!/bin/sh")) ==
        std::nullopt);
  CHECK(collector::StaticallyLinkedExecutable(WriteScript(dir, "plain.txt", "no interpreter")) ==
        std::nullopt);
  CHECK(collector::StaticallyLinkedExecutable(dir + "/missing") == std::nullopt);
}

TEST_CASE("a statically linked NVTX program runs to its end and prof says it is not traced",
          "[nvtx][static]") {
  const std::string report = MakeTempDir("static_program") + "/r.sqlite";
  const std::string static_program = TestProgram("nvtx_static_program");
  // The default --trace: NVTX_INJECTION64_PATH is set, and the static program's NVTX calls load
  // libprof_nvtx.so (and libprof_core.so) into it. -s none: CPU samples (the kernel's, on by
  // default) would list the static program among the processes too.
  const CommandResult result = RunCommand({ProfBinary(), "profile", "-s", "none", "-o", report,
                                           static_program, TestProgram("nvtx_threads_program")});
  INFO("prof stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.rfind("static program ran its NVTX calls\n", 0) == 0);
  CHECK(result.err.rfind(StaticWarning(static_program), 0) == 0);
  CHECK(result.err.find("statically linked", StaticWarning(static_program).size()) ==
        std::string::npos);

  // Only the child, dynamically linked, was traced: its 25 ranges and none of the static program.
  const std::string child_pid = PrintedTid(result.out, "nvtx-main");
  CHECK(QueryRows(report, "SELECT pid FROM PROCESSES") == Rows{{child_pid}});
  CHECK(QueryRows(report, "SELECT count(*), sum(text LIKE 'static%') FROM NVTX_EVENTS") ==
        Rows{{"25", "0"}});
}

TEST_CASE("a dynamically linked program gets no static warning", "[nvtx][static]") {
  const std::string report = MakeTempDir("dynamic_program") + "/r.sqlite";
  const CommandResult result = RunCommand(
      {ProfBinary(), "profile", "-t", "nvtx", "-o", report, TestProgram("nvtx_threads_program")});
  INFO("prof stderr: " << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("statically linked") == std::string::npos);
}

}  // namespace prof::test
