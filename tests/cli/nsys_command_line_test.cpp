// nsys command lines under prof: every option of `nsys profile` runs or is refused in one line
// (tests/cli/data/nsys_profile_options.tsv), the tutorial's recipe runs unchanged, and commands,
// options and values prof does not know get one clear line, never CLI11's own text.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/command_line_errors.h"
#include "cli/nsys_profile_options.h"
#include "common/named_entries.h"
#include "common/split.h"
#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;
namespace fs = std::filesystem;

namespace {

struct OptionCase {
  std::string option;
  std::string value;  // "-": the option takes none
  std::string expected;
};

std::vector<OptionCase> ReadOptionCases() {
  std::ifstream in(PROF_CLI_TEST_DATA "/nsys_profile_options.tsv");
  std::vector<OptionCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = prof::Split(line, '\t');
    REQUIRE(fields.size() == 3);
    cases.push_back({fields[0], fields[1], fields[2]});
  }
  return cases;
}

// -e for the sanitizers' settings of this test run: `-n false` gives the program nothing else, and
// an instrumented prof library in a program without ASAN_OPTIONS stops it at start-up.
std::vector<std::string> SanitizerVariables() {
  std::vector<std::string> words;
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"}) {
    if (const char* value = std::getenv(name))
      words.insert(words.end(), {"-e", std::string(name) + "=" + value});
  }
  return words;
}

bool SetsOutput(const std::string& word) {
  return word == "-o" || word.rfind("--output", 0) == 0 || word == "-f" ||
         word.rfind("--force-overwrite", 0) == 0;
}

// `prof profile` run in `dir` with `words` before the program, which exits with 0; the report is
// r.sqlite, overwritten, unless `words` set the output.
CommandResult ProfileWith(const std::string& dir, std::vector<std::string> words) {
  std::vector<std::string> argv = {"env", "-C", dir, ProfBinary(), "profile"};
  if (std::none_of(words.begin(), words.end(), SetsOutput)) {
    argv.insert(argv.end(), {"-o", "r", "-f", "true"});
  }
  argv.insert(argv.end(), words.begin(), words.end());
  argv.push_back(TestProgram("behaviour_program"));
  argv.insert(argv.end(), {"exit", "0"});
  return RunCommand(argv);
}

size_t LineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("every nsys profile option runs or is refused in one line as the table says") {
  const std::string dir = MakeTempDir("nsys_options");
  const std::vector<OptionCase> cases = ReadOptionCases();
  REQUIRE(cases.size() > 150);
  for (const OptionCase& option : cases) {
    std::vector<std::string> words;
    if (option.value == "-") {
      words = {option.option};
    } else if (option.option.rfind("--", 0) == 0) {
      words = {option.option + "=" + option.value};
    } else {
      words = {option.option, option.value};
    }
    // Tracing nothing keeps 180 runs fast, except where the case is about tracing.
    if (option.option != "--trace" && option.option != "-t") words.push_back("--trace=none");
    for (const std::string& word : SanitizerVariables()) words.push_back(word);
    for (const auto& entry : fs::directory_iterator(dir)) fs::remove(entry.path());
    const CommandResult result = ProfileWith(dir, words);
    INFO(option.option << " " << option.value << "\nstderr: " << result.err);
    if (option.expected == "runs") {
      CHECK(result.exit_code == 0);
      CHECK(result.err.find("error") == std::string::npos);
      CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
    } else {
      CHECK(result.exit_code == 1);
      CHECK(result.err == "prof: error: " + option.expected + "\n");
      CHECK(fs::is_empty(dir));
    }
  }
}

TEST_CASE("the table of nsys options covers every option prof accepts only for nsys") {
  std::set<std::string> tabled;
  for (const OptionCase& option : ReadOptionCases()) tabled.insert(option.option);
  for (const std::string& name : prof::cli::NsysProfileOptions::LongNames()) {
    INFO(name);
    CHECK(tabled.count(name) == 1);
  }
}

TEST_CASE("the tutorial's nsys recipe runs unchanged and writes its report") {
  const std::string dir = MakeTempDir("nsys_recipe");
  const CommandResult result = RunCommand(
      {"sh", "-c",
       "cd '" + dir + "' && '" + ProfBinary() +
           "' profile -w true -t cuda,nvtx,osrt,cudnn,cublas -s none -o out -f true -x true '" +
           TestProgram("behaviour_program") + "' args hello"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "hello\n");
  CHECK(fs::exists(dir + "/out.sqlite"));
  CHECK(QueryRows(dir + "/out.sqlite",
                  "SELECT value FROM PROF_SESSION WHERE name = "
                  "'trace_options'") ==
        std::vector<std::vector<std::string>>{{"cuda,nvtx,osrt,cudnn,cublas"}});
}

TEST_CASE("a -- ends prof's options and the program after it may look like an option") {
  const std::string dir = MakeTempDir("double_dash");
  const CommandResult result = RunCommand({ProfBinary(), "profile", "-t", "none", "-o", dir + "/r",
                                           "--", "sh", "-c", "echo $0-$1; exit 3", "-x", "y"});
  CHECK(result.exit_code == 3);
  CHECK(result.out == "-x-y\n");
  CHECK(fs::exists(dir + "/r.sqlite"));
}

TEST_CASE("an -e list sets two variables as nsys does and -n false gives only those") {
  const std::string dir = MakeTempDir("env_list");
  const CommandResult both =
      RunCommand({ProfBinary(), "profile", "-t", "none", "-o", dir + "/a", "-e",
                  "FIRST=1,SECOND=two", "-e", "THIRD=3", "sh", "-c", "echo $FIRST-$SECOND-$THIRD"});
  CHECK(both.exit_code == 0);
  CHECK(both.out == "1-two-3\n");
  // HOME is in every test environment; without inheritance only prof's and -e's variables remain.
  std::vector<std::string> alone_argv = {ProfBinary(), "profile", "-t",    "none", "-o",
                                         dir + "/b",   "-n",      "false", "-e",   "ONLY=1"};
  for (const std::string& word : SanitizerVariables()) alone_argv.push_back(word);
  alone_argv.insert(alone_argv.end(), {"/bin/sh", "-c", "echo ${HOME:-no-home}-$ONLY"});
  const CommandResult alone = RunCommand(alone_argv);
  CHECK(alone.exit_code == 0);
  CHECK(alone.out == "no-home-1\n");
}

TEST_CASE("show-output false keeps the program's output off the console and its exit code stays") {
  const std::string dir = MakeTempDir("show_output");
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-q", "-t", "none", "-o", dir + "/r", "-w", "false",
                  "sh", "-c", "echo out; echo err >&2; exit 4"});
  CHECK(result.exit_code == 4);
  CHECK(result.out.empty());
  CHECK(result.err.empty());
}

TEST_CASE("wait=primary ends the report when the program exits and not its background children") {
  const std::string dir = MakeTempDir("wait_primary");
  // The child writes its file after 2 s: prof must be done before that with primary, after with
  // all (nsys's default). Its output goes elsewhere, so that the test's pipes close with prof.
  const std::string program = "(sleep 2; touch '" + dir + "/child-done') > /dev/null 2>&1 & exit 0";
  const CommandResult primary = RunCommand({ProfBinary(), "profile", "-t", "osrt", "-o", dir + "/p",
                                            "--wait=primary", "sh", "-c", program});
  CHECK(primary.exit_code == 0);
  CHECK_FALSE(fs::exists(dir + "/child-done"));
  // The subshell and its sleep.
  CHECK(primary.err.find("not waiting for 2 process(es) that outlived the program "
                         "(--wait=primary)") != std::string::npos);
  CHECK(fs::exists(dir + "/p.sqlite"));
  // Let the first run's child finish before the second run starts its own.
  for (int i = 0; i < 100 && !fs::exists(dir + "/child-done"); ++i) {
    RunCommand({"sleep", "0.05"});
  }
  fs::remove(dir + "/child-done");
  const CommandResult all =
      RunCommand({ProfBinary(), "profile", "-t", "osrt", "-o", dir + "/a", "sh", "-c", program});
  CHECK(all.exit_code == 0);
  CHECK(fs::exists(dir + "/child-done"));
}

TEST_CASE("stop-on-exit false collects until --duration expires after the program exits") {
  const std::string dir = MakeTempDir("stop_on_exit");
  // The program exits at once: only -x false keeps the session open until --duration closes it.
  const CommandResult result = ProfileWith(dir, {"-t", "none", "-x", "false", "-d", "0.5"});
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("prof: --duration=0.5 s reached: collection stopped\n") !=
        std::string::npos);
  const CommandResult stop_on_exit = ProfileWith(dir, {"-t", "none", "-d", "0.5"});
  CHECK(stop_on_exit.err.find("--duration") == std::string::npos);
  const CommandResult without_duration = ProfileWith(dir, {"-x", "false"});
  CHECK(without_duration.exit_code == 1);
  CHECK(without_duration.err ==
        "prof: error: --stop-on-exit=false needs --duration: prof has no `nsys stop` to end the "
        "session\n");
}

TEST_CASE("export=sqlite says the report is SQLite already and writes no second file") {
  const std::string dir = MakeTempDir("export_sqlite");
  const CommandResult result = ProfileWith(dir, {"-t", "none", "--export=sqlite"});
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("prof: --export=sqlite: the report is an SQLite file already; no second "
                        "file\n") != std::string::npos);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path().filename());
  CHECK(files == std::vector<std::string>{"r.sqlite"});
}

TEST_CASE("unknown commands and options get one line with a suggestion and never CLI11's text") {
  const std::string dir = MakeTempDir("cli_errors");
  struct Case {
    std::vector<std::string> words;
    std::string err;
  };
  const Case cases[] = {
      {{"stat", "r.sqlite"},
       "prof: error: unknown command 'stat' (did you mean stats?); commands: profile, stats, "
       "diff, analyze, export, merge\n"},
      {{"profle", "ls"},
       "prof: error: unknown command 'profle' (did you mean profile?); commands: profile, stats, "
       "diff, analyze, export, merge\n"},
      {{"launch", "python", "train.py"},
       "prof: error: prof launch is not supported (nsys launch): prof has no interactive "
       "sessions: run the program under prof profile, with --capture-range=cudaProfilerApi|nvtx "
       "or --delay/--duration to choose what is collected\n"},
      {{}, "prof: error: no command given; usage: prof <command> [options]; see prof --help\n"},
      {{"stats", "--formt", "csv", "r.sqlite"},
       "prof: error: unknown option --formt for prof stats (did you mean --format?); see prof "
       "stats --help\n"},
      {{"profile", "--trase=cuda", "ls"},
       "prof: error: unknown option --trase for prof profile (did you mean --trace?); see prof "
       "profile --help\n"},
      {{"profile", "--stats=maybe", "ls"},
       "prof: error: --stats expects true or false, got 'maybe'\n"},
      {{"profile", "-t"}, "prof: error: option --trace needs a value; see prof profile --help\n"},
      {{"profile", "--sample"},
       "prof: error: option --sample needs a value; see prof profile --help\n"},
      {{"stats"}, "prof: error: no report file given (prof stats <report>...)\n"},
      {{"export", "r.sqlite"}, "prof: error: missing --type; see prof export --help\n"},
      {{"profile"},
       "prof: error: no program given; usage: prof profile [options] <program> [args...]\n"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {ProfBinary()};
    argv.insert(argv.end(), c.words.begin(), c.words.end());
    const CommandResult result = RunCommand(argv);
    INFO(prof::JoinNames(c.words));
    CHECK(result.exit_code == 1);
    CHECK(result.err == c.err);
    CHECK(LineCount(result.err) == 1);
  }
}

TEST_CASE("prof profile --help shows where the program goes") {
  const CommandResult result = RunCommand({ProfBinary(), "profile", "--help"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("\nUsage: prof profile [options] <program> [args...]\n") !=
        std::string::npos);
  // nsys's options prof only accepts are listed in docs/nsys-compatibility.md, not in the help.
  CHECK(result.out.find("--gpuctxsw") == std::string::npos);
}

TEST_CASE("did you mean picks the close name or none") {
  using prof::cli::ClosestName;
  const std::vector<std::string> commands = {"profile", "stats",  "diff",
                                             "analyze", "export", "merge"};
  CHECK(ClosestName("stat", commands) == "stats");
  CHECK(ClosestName("analyse", commands) == "analyze");
  CHECK(ClosestName("exprot", commands) == "export");
  CHECK(ClosestName("anal", commands) == "analyze");
  CHECK(ClosestName("xyz", commands).empty());
  CHECK(ClosestName("summary", commands).empty());
}
