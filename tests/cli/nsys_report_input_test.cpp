// Every report reader (stats, analyze, diff, merge, export) given an nsys file that is not SQLite
// (.nsys-rep, .qdstrm) says in one line how to get the .sqlite it needs, and writes nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/test_support.h"

namespace prof::test {
namespace {

namespace fs = std::filesystem;

CommandResult Prof(std::vector<std::string> args) {
  args.insert(args.begin(), ProfBinary());
  return RunCommand(args);
}

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE("readers refuse an .nsys-rep with the export command to run", "[cli][nsys_rep]") {
  const std::string dir = MakeTempDir("nsys_rep_input");
  const std::string rep = dir + "/run.nsys-rep";
  // Not SQLite's header: what an nsys-rep (a zip-like container) starts with does not matter.
  std::ofstream(rep, std::ios::binary) << "NSYS-REPORT not an SQLite database, padding.......";
  const std::string line = "prof: error: " + rep +
                           " is an nsys report file (.nsys-rep); run `nsys export --type sqlite " +
                           rep + "` first and pass the .sqlite\n";
  struct Case {
    std::vector<std::string> args;
    int exit_code;
  };
  const std::vector<Case> cases = {
      {{"stats", rep}, 1},
      {{"stats", "-o", dir + "/out", rep}, 1},
      {{"analyze", rep}, 1},
      {{"export", "--type", "chrome", rep}, 1},
      {{"merge", "-o", dir + "/merged.sqlite", rep, rep}, 1},
      {{"diff", rep, rep}, 2},  // prof diff's errors exit 2 (1 is "regressed")
  };
  for (const Case& c : cases) {
    INFO(c.args[0]);
    const CommandResult result = Prof(c.args);
    CHECK(result.exit_code == c.exit_code);
    CHECK(result.out.empty());
    CHECK(result.err == line);
  }
  CHECK(Files(dir) == std::vector<std::string>{"run.nsys-rep"});
}

TEST_CASE("a .qdstrm is named as a capture stream to import first", "[cli][nsys_rep]") {
  const std::string dir = MakeTempDir("qdstrm_input");
  const std::string stream = dir + "/run.qdstrm";
  std::ofstream(stream, std::ios::binary) << "QDSTRM raw capture stream bytes...............";
  const CommandResult result = Prof({"stats", stream});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "prof: error: " + stream +
                          " is an nsys capture stream (.qdstrm); convert it with `QdstrmImporter "
                          "-i " +
                          stream +
                          "`, run `nsys export --type sqlite` on the .nsys-rep and pass the "
                          ".sqlite\n");
}

TEST_CASE("an SQLite export named .nsys-rep is read as a report", "[cli][nsys_rep]") {
  const std::string dir = MakeTempDir("nsys_rep_sqlite");
  const std::string rep = dir + "/renamed.nsys-rep";
  fs::copy_file(std::string(PROF_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite", rep);
  const CommandResult result = Prof({"stats", "-q", "-f", "csv", "-r", "nvtx_sum", rep});
  CHECK(result.exit_code == 0);
  CHECK(result.out.rfind("Time (%),Total Time (ns),Instances,", 0) == 0);
}

}  // namespace
}  // namespace prof::test
