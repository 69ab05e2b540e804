// End to end: `prof profile` runs a program with known behaviour; exit codes, pass-through, errors.
#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;
using prof::test::WithoutProgressNotes;
namespace fs = std::filesystem;

namespace {

CommandResult Profile(const std::string& report, std::vector<std::string> program_args,
                      std::vector<std::string> prof_options = {}, const std::string& input = "") {
  std::vector<std::string> argv = {ProfBinary(), "profile", "-o", report};
  argv.insert(argv.end(), prof_options.begin(), prof_options.end());
  argv.push_back(TestProgram("behaviour_program"));
  argv.insert(argv.end(), program_args.begin(), program_args.end());
  return RunCommand(argv, input);
}

// The test's own look for the CUDA driver, the way a CUDA program finds it.
bool CudaDriverPresent() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver != nullptr) dlclose(driver);
  return driver != nullptr;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::string SessionValue(const std::string& report, const std::string& name) {
  auto rows = QueryRows(report, "SELECT value FROM PROF_SESSION WHERE name = '" + name + "'");
  REQUIRE(rows.size() == 1);
  return rows[0][0];
}

}  // namespace

TEST_CASE("prof exits with the program's exit code and records it") {
  const std::string dir = MakeTempDir("exit_codes");
  for (const char* code : {"0", "3"}) {
    const std::string report = dir + "/exit" + code + ".sqlite";
    CommandResult result = Profile(report, {"exit", code});
    INFO(result.err);
    CHECK(result.exit_code == std::stoi(code));
    CHECK(SessionValue(report, "exit_status") == code);
  }
}

TEST_CASE("a program killed by SIGKILL makes prof exit 137 and the report is still complete") {
  const std::string dir = MakeTempDir("sigkill");
  const std::string report = dir + "/killed.sqlite";
  CommandResult result = Profile(report, {"kill", "9"});
  CHECK(result.exit_code == 137);
  CHECK(SessionValue(report, "exit_status") == "137");
  CHECK(fs::exists(report));
}

TEST_CASE("a closed stdout costs neither the program's exit code nor the report") {
  const std::string report = MakeTempDir("closed_pipe") + "/r.sqlite";
  // head exits after prof's start line and the program's first line; prof's later lines then
  // meet a closed pipe.
  const std::string script = "'" + ProfBinary() + "' profile -t osrt -o '" + report +
                             "' sh -c 'echo first; sleep 0.5; exit 3' 2>&1 | head -2 | tail -1; "
                             "echo prof-exit=${PIPESTATUS[0]}";
  const CommandResult result = RunCommand({"bash", "-c", script});
  INFO(result.err);
  CHECK(result.out == "first\nprof-exit=3\n");
  CHECK(SessionValue(report, "exit_status") == "3");
}

TEST_CASE("the program keeps prof's priority and only prof's reader thread keeps it too") {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, 0);
  REQUIRE(errno == 0);
  const std::string lowered = std::to_string(std::min(nice + 10, 19));
  // The program prints its own nice, then each of prof's threads with its nice (stat field 19).
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-q", "-t", "none", "-o", MakeTempDir("priority") + "/r",
                  "sh", "-c", "nice; cat /proc/$PPID/task/*/stat | awk '{print $2, $19}'"});
  CHECK(result.exit_code == 0);
  std::istringstream lines(result.out);
  std::string program_nice;
  std::getline(lines, program_nice);
  CHECK(program_nice == std::to_string(nice));
  std::map<std::string, std::set<std::string>> nice_of_thread;
  for (std::string name, value; lines >> name >> value;) nice_of_thread[name].insert(value);
  CHECK(nice_of_thread["(prof-reader)"] == std::set<std::string>{std::to_string(nice)});
  CHECK(nice_of_thread["(prof)"] == std::set<std::string>{lowered});
  CHECK(nice_of_thread["(prof-writer)"] == std::set<std::string>{lowered});
  CHECK(nice_of_thread["(prof-encoder)"] == std::set<std::string>{lowered});
}

TEST_CASE("the program keeps the descriptor limit prof got, and prof copes with running out") {
  const std::string dir = MakeTempDir("descriptors");
  // prof raises its own soft limit (one socket per traced process), not the program's.
  const CommandResult limit =
      RunCommand({"bash", "-c",
                  "ulimit -Sn 512; '" + ProfBinary() + "' profile -q -t osrt -o '" + dir +
                      "/limit' sh -c 'ulimit -Sn'"});
  INFO(limit.err);
  CHECK(limit.out == "512\n");
  // With 40 descriptors in all, 60 processes at once cannot all be connected: they wait until
  // others end, and every one of them still reaches the report.
  const CommandResult crowd =
      RunCommand({"bash", "-c",
                  "ulimit -n 40; '" + ProfBinary() + "' profile -t osrt -o '" + dir +
                      "/crowd' sh -c 'i=0; while [ $i -lt 60 ]; do sleep 0.5 & "
                      "i=$((i+1)); done; wait'"});
  INFO(crowd.err);
  CHECK(crowd.exit_code == 0);
  CHECK(crowd.err.find("warning: prof ran out of file descriptors (ulimit -n)") !=
        std::string::npos);
  CHECK(QueryRows(dir + "/crowd.sqlite", "SELECT count(*) FROM PROCESSES") ==
        std::vector<std::vector<std::string>>{{"61"}});
}

TEST_CASE("signals a program blocks in all its threads stay blocked in prof's thread too") {
  const std::string report = MakeTempDir("sigwait") + "/r.sqlite";
  const CommandResult result = Profile(report, {"sigwait"});
  INFO(result.err);
  CHECK(result.exit_code == 0);  // not 143: prof's flusher thread did not take the SIGTERM
  CHECK(result.out == "sigwait=15\n");
}

TEST_CASE("a child made without fork handlers exits without touching the parent's stream") {
  const std::string report = MakeTempDir("rawfork") + "/r.sqlite";
  // Bounded: a child that waited for a flusher it does not have would hang here for good.
  const CommandResult result =
      RunCommand({"timeout", "-s", "KILL", "30", ProfBinary(), "profile", "-q", "-o", report,
                  TestProgram("behaviour_program"), "rawfork"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "child=0\n");
}

TEST_CASE("a program that closes every descriptor and reuses the numbers keeps its files") {
  const std::string report = MakeTempDir("closefds") + "/r.sqlite";
  const CommandResult result = Profile(report, {"closefds"}, {"-t", "osrt"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "closed=0\n");  // prof closed none of the program's descriptors
}

TEST_CASE(
    "a program that puts its own socket on prof's descriptor numbers gets no bytes of prof's") {
  const std::string report = MakeTempDir("reusesockets") + "/r.sqlite";
  const CommandResult result = Profile(report, {"reusesockets"}, {"-t", "osrt"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  // prof sent no records into the program's socket, and read none of the program's bytes.
  CHECK(result.out == "sent=0 kept=1\n");
  // The report is still written, with the program in it.
  CHECK(QueryRows(report, "SELECT COUNT(*) FROM PROCESSES") ==
        std::vector<std::vector<std::string>>{{"1"}});
}

TEST_CASE("stdin - stdout - stderr and arguments pass through untouched") {
  const std::string dir = MakeTempDir("passthrough");
  CommandResult echo = Profile(dir + "/echo", {"echo"}, {"-q"}, "line one\nline two\n");
  CHECK(echo.exit_code == 0);
  CHECK(echo.out == "line one\nline two\n");
  CHECK(echo.err == "to stderr\n");  // -q: prof itself prints nothing

  CommandResult args = Profile(dir + "/args", {"args", "two words", "", "--trace=x", "-o"}, {"-q"});
  CHECK(args.out == "two words\n\n--trace=x\n-o\n");
}

TEST_CASE("prof's messages go to stderr with the prof: prefix") {
  const std::string dir = MakeTempDir("messages");
  CommandResult result = Profile(dir + "/r", {"exit", "0"}, {"-t", "nvtx,osrt"});
  CHECK(result.out.empty());
  CHECK(WithoutProgressNotes(result.err) == "prof: report written to " + dir + "/r.sqlite\n");
  CommandResult default_trace = Profile(dir + "/d", {"exit", "0"});
#ifdef PROF_HAS_CUDA_TRACING
  if (CudaDriverPresent()) {
    // CUDA tracing (on by default) starts only if the program initializes CUDA: nothing to say.
    CHECK(WithoutProgressNotes(default_trace.err) ==
          "prof: report written to " + dir + "/d.sqlite\n");
  } else {
    // No driver: no CUDA program can run here, and prof says why the report has no CUDA rows.
    CHECK(WithoutProgressNotes(default_trace.err) ==
          "prof: warning: CUDA is not traced: this machine has no CUDA driver (libcuda.so.1 "
          "cannot be loaded); tracing the rest\nprof: report written to " +
              dir + "/d.sqlite\n");
  }
#else
  // A build without CUPTI's headers has no libprof_cuda.so: prof says so once.
  CHECK(WithoutProgressNotes(default_trace.err) ==
        "prof: warning: CUDA tracing is not available in this build; tracing "
        "the rest\nprof: report written to " +
            dir + "/d.sqlite\n");
#endif
}

TEST_CASE("CUDA tracing sets CUDA_INJECTION64_PATH and the graph trace mode for the program") {
  const std::string dir = MakeTempDir("cuda_env");
  Profile(dir + "/on", {"exit", "0"},
          {"-q", "--cuda-graph-trace=node", "--cuda-memory-usage=true"});
  const std::string on = SessionValue(dir + "/on.sqlite", "environment_set");
#ifdef PROF_HAS_CUDA_TRACING
  CHECK(on.find(
            "CUDA_INJECTION64_PATH=" + fs::path(ProfBinary()).parent_path().parent_path().string() +
            "/lib/libprof_cuda.so") != std::string::npos);
#else
  CHECK(on.find("CUDA_INJECTION64_PATH") == std::string::npos);
#endif
  CHECK(on.find(";cuda_graph_trace=1;cuda_memory_usage=1;") != std::string::npos);
  Profile(dir + "/off", {"exit", "0"}, {"-q", "-t", "nvtx"});
  const std::string off = SessionValue(dir + "/off.sqlite", "environment_set");
  CHECK(off.find("CUDA_INJECTION64_PATH") == std::string::npos);
  CHECK(off.find(";cuda_graph_trace=0;cuda_memory_usage=0;") != std::string::npos);
}

TEST_CASE(
    "the -e option sets variables in the program's environment and the report lists what prof "
    "set") {
  const std::string dir = MakeTempDir("env");
  const std::string report = dir + "/env.sqlite";
  CommandResult result =
      Profile(report, {"env", "PROF_TEST_VALUE"}, {"-q", "-e", "PROF_TEST_VALUE=a b"});
  CHECK(result.out == "a b\n");
  const std::string set = SessionValue(report, "environment_set");
  CHECK(set.find("PROF_TEST_VALUE=a b") != std::string::npos);
  CHECK(set.find("LD_PRELOAD=") != std::string::npos);
}

TEST_CASE("capture settings are in META_DATA_CAPTURE as nsys names them") {
  const std::string dir = MakeTempDir("capture");
  const std::string report = dir + "/c.sqlite";
  REQUIRE(Profile(report, {"args", "x y"}, {"-q", "-t", "nvtx,osrt", "--osrt-threshold", "5000"})
              .exit_code == 0);
  auto rows = QueryRows(report,
                        "SELECT name, value FROM META_DATA_CAPTURE WHERE name NOT IN "
                        "('PROCESS_0:WORKING_DIR', 'RUN_DURATION_MS') ORDER BY rowid");
  CHECK(rows == std::vector<std::vector<std::string>>{
                    {"CAPTURE_EVENT_TYPE", "OSRuntime"},
                    {"CAPTURE_EVENT_TYPE", "NvtxEvents"},
                    {"OS_RUNTIME_OPTIONS:DURATION_THRESHOLD_NS", "5000"},
                    {"PROCESS_0:HOW_TO_ATTACH", "LaunchAnother"},
                    {"PROCESS_0:COMMAND", TestProgram("behaviour_program")},
                    {"PROCESS_0:ARGUMENT_0", "args"},
                    {"PROCESS_0:ARGUMENT_1", "x y"},
                    {"PROCESS_0:COLLECT_NVTX_TRACE", "true"},
                    {"PROCESS_0:COLLECT_CUDA_TRACE", "false"},
                    {"INCLUDE_CHILDREN", "true"}});
}

TEST_CASE("the last -e of a name wins - over earlier ones and over prof's own variables") {
  const std::string dir = MakeTempDir("env_override");
  CommandResult twice = Profile(dir + "/a", {"env", "PROF_TEST_VALUE"},
                                {"-q", "-e", "PROF_TEST_VALUE=1", "-e", "PROF_TEST_VALUE=2"});
  CHECK(twice.out == "2\n");
  CommandResult nvtx = Profile(dir + "/b", {"env", "NVTX_INJECTION64_PATH"},
                               {"-q", "-e", "NVTX_INJECTION64_PATH=/user/choice.so"});
  CHECK(nvtx.out == "/user/choice.so\n");
}

TEST_CASE("the report names the process and leaves no temporary file behind") {
  const std::string dir = MakeTempDir("process_row");
  const std::string report = dir + "/p.sqlite";
  REQUIRE(Profile(report, {"exit", "0"}).exit_code == 0);
  auto rows =
      QueryRows(report, "SELECT name, globalPid = ((1 << 48) | (pid << 24)) FROM PROCESSES");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0] == std::vector<std::string>{"behaviour_progr", "1"});  // /proc comm: 15 chars
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path().filename());
  CHECK(files == std::vector<std::string>{"p.sqlite"});
}

TEST_CASE("bad input gives one clear line and a non-zero exit and overwrites nothing") {
  const std::string dir = MakeTempDir("bad_input");
  const std::string prof = ProfBinary();
  const std::string program = TestProgram("behaviour_program");

  SECTION("unknown option") {
    CommandResult r = RunCommand({prof, "profile", "--bogus", program});
    CHECK(r.exit_code != 0);
    CHECK(r.err ==
          "prof: error: unknown option --bogus for prof profile; see prof profile --help\n");
  }
  SECTION("unknown trace value") {
    CommandResult r = RunCommand({prof, "profile", "-t", "cuda,gpu", program});
    CHECK(r.exit_code == 1);
    CHECK(r.err ==
          "prof: error: unknown --trace value 'gpu'; valid values: cuda, nvtx, osrt, "
          "cublas, cudnn, nccl, cuda-sw, none\n");
  }
  SECTION("unknown graph trace mode") {
    CommandResult r = RunCommand({prof, "profile", "--cuda-graph-trace=nodes", program});
    CHECK(r.exit_code != 0);
    CHECK(r.err.rfind("prof: error: ", 0) == 0);
    CHECK(r.err.find("--cuda-graph-trace") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  SECTION("program not found") {
    CommandResult r = RunCommand({prof, "profile", "-o", dir + "/nf", "no-such-program-xyz"});
    CHECK(r.exit_code == 1);
    CHECK(r.err == "prof: error: program not found: no-such-program-xyz\n");
    CHECK_FALSE(fs::exists(dir + "/nf.sqlite"));
  }
  SECTION("program not executable") {
    const std::string script = dir + "/not_executable.sh";
    std::ofstream(script) << "echo hi\n";
    CommandResult r = RunCommand({prof, "profile", "-o", dir + "/ne", script});
    CHECK(r.exit_code == 1);
    CHECK(r.err == "prof: error: program is not executable: " + script + "\n");
    CHECK_FALSE(fs::exists(dir + "/ne.sqlite"));
  }
  SECTION("report exists without --force-overwrite") {
    const std::string existing = dir + "/existing.sqlite";
    std::ofstream(existing) << "precious";
    CommandResult r = RunCommand({prof, "profile", "-o", existing, program, "echo"}, "input");
    CHECK(r.exit_code == 1);
    CHECK(r.err == "prof: error: report " + existing +
                       " already exists; use --force-overwrite=true to replace it\n");
    CHECK(r.out.empty());  // the program never ran
    CHECK(ReadFile(existing) == "precious");
    CommandResult forced =
        RunCommand({prof, "profile", "-q", "-f", "true", "-o", existing, program, "exit", "0"});
    CHECK(forced.exit_code == 0);
    CHECK(ReadFile(existing).rfind("SQLite format 3", 0) == 0);
  }
  SECTION("unwritable directory") {
    const std::string locked = dir + "/locked";
    fs::create_directory(locked);
    chmod(locked.c_str(), 0500);
    CommandResult r = RunCommand({prof, "profile", "-o", locked + "/r", program, "echo"}, "x");
    chmod(locked.c_str(), 0700);
    if (geteuid() != 0) {  // root writes anywhere
      CHECK(r.exit_code == 1);
      CHECK(r.err.rfind("prof: error: ", 0) == 0);
      CHECK(r.err.find(locked) != std::string::npos);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.out.empty());
    }
  }
  SECTION("missing output directory") {
    CommandResult r =
        RunCommand({prof, "profile", "-o", dir + "/no/such/dir/r", program, "echo"}, "x");
    CHECK(r.exit_code == 1);
    CHECK(r.err.rfind("prof: error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
  }
  SECTION("no program") {
    CommandResult r = RunCommand({prof, "profile"});
    CHECK(r.exit_code == 1);
    CHECK(r.err ==
          "prof: error: no program given; usage: prof profile [options] <program> [args...]\n");
  }
}

TEST_CASE("prof --version and profile --help") {
  CommandResult version = RunCommand({ProfBinary(), "--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out == "prof " PROF_VERSION "\n");
  CommandResult help = RunCommand({ProfBinary(), "profile", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--osrt-threshold") != std::string::npos);
  CHECK(help.out.find("prof profile python train.py") != std::string::npos);
}
