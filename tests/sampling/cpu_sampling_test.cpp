// End to end: `prof profile -s process-tree` samples the program's process tree with
// perf_event_open and writes resolved stacks (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS), thread
// switches with --cpuctxsw (SCHED_EVENTS), and `prof stats -r cpu_sample_sum` reads them. The
// program splits its CPU time 70/30 between hot_seventy and hot_thirty.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryRows;
using prof::test::RunCommand;
using prof::test::TestProgram;

namespace {

using Rows = std::vector<std::vector<std::string>>;

struct SampledRun {
  CommandResult result;
  std::string report;
};

SampledRun Profile(const std::string& test_name, const std::vector<std::string>& prof_options,
                   const std::vector<std::string>& command, int expected_exit = 0) {
  SampledRun run;
  run.report = MakeTempDir(test_name) + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "-t", "none", "-o", run.report};
  argv.insert(argv.end(), prof_options.begin(), prof_options.end());
  argv.insert(argv.end(), command.begin(), command.end());
  run.result = RunCommand(argv);
  INFO("prof stdout:\n" << run.result.out << "\nprof stderr:\n" << run.result.err);
  REQUIRE(run.result.exit_code == expected_exit);
  return run;
}

// Profile, with perf_event_open refused (PROF_PERF_EVENTS=off): with -s the program samples
// itself with its timer signal.
SampledRun ProfilePerfRefused(const std::string& test_name,
                              const std::vector<std::string>& prof_options,
                              const std::vector<std::string>& command) {
  setenv("PROF_PERF_EVENTS", "off", 1);
  SampledRun run = Profile(test_name, prof_options, command);
  unsetenv("PROF_PERF_EVENTS");
  return run;
}

int64_t Count(const std::string& report, const std::string& sql) {
  const Rows rows = QueryRows(report, sql);
  REQUIRE(rows.size() == 1);
  return std::atoll(rows[0][0].c_str());
}

// Distinct sampling instants (thread, time) of process `pid` (0: any) whose leaf frame is
// `function`.
int64_t LeafInstants(const std::string& report, const std::string& function, int64_t pid = 0) {
  return Count(
      report,
      "SELECT count(DISTINCT s.globalTid || ':' || s.start)"
      " FROM SAMPLING_CALLCHAINS f JOIN COMPOSITE_EVENTS s ON s.id = f.id "
      "JOIN StringIds n ON n.id = f.symbol WHERE f.stackDepth = 0 AND n.value = '" +
          function + "'" +
          (pid == 0 ? "" : " AND s.globalTid / 16777216 % 16777216 = " + std::to_string(pid)));
}

// Checks the 70/30 split: the share is over distinct sampling instants, the bound three standard
// errors of such a share, and at least 5 points. The in-program fallback takes its samples at the
// kernel's tick (250 Hz on the build machine) and writes a sample taken late once per period it
// covers, so its 1000 samples a second are about 250 independent ones (and a thread kept off the
// CPU by a loaded machine weighs one instant many times, which a share over samples would count
// as many). Returns the instants in hot_seventy and hot_thirty.
int64_t CheckShare(const std::string& report, int64_t pid = 0) {
  const int64_t seventy = LeafInstants(report, "hot_seventy", pid);
  const int64_t thirty = LeafInstants(report, "hot_thirty", pid);
  const int64_t instants = Count(report,
                                 "SELECT count(DISTINCT globalTid || ':' || start) FROM "
                                 "COMPOSITE_EVENTS");
  INFO("hot_seventy " << seventy << ", hot_thirty " << thirty << ", instants " << instants);
  REQUIRE(seventy + thirty >= 150);
  REQUIRE(instants >= 100);
  const double share = 100.0 * static_cast<double>(seventy) / static_cast<double>(seventy + thirty);
  const double bound = std::max(5.0, 300.0 * std::sqrt(0.7 * 0.3 / static_cast<double>(instants)));
  CHECK(share >= 70.0 - bound);
  CHECK(share <= 70.0 + bound);
  return seventy + thirty;
}

// CheckShare, and the hot functions' stacks reach main.
void CheckSplit(const std::string& report, int64_t pid = 0) {
  const int64_t hot = CheckShare(report, pid);
  REQUIRE(hot >= 200);
  const int64_t through_main =
      Count(report,
            "SELECT count(DISTINCT s.globalTid || ':' || s.start) FROM SAMPLING_CALLCHAINS leaf "
            "JOIN COMPOSITE_EVENTS s ON s.id = leaf.id "
            "JOIN StringIds l ON l.id = leaf.symbol AND l.value IN ('hot_seventy', 'hot_thirty') "
            "JOIN SAMPLING_CALLCHAINS caller ON caller.id = leaf.id "
            "JOIN StringIds c ON c.id = caller.symbol AND c.value = 'main' "
            "WHERE leaf.stackDepth = 0");
  CHECK(through_main * 100 >= hot * 95);
}

TEST_CASE("frame-pointer stacks of a 70/30 program split within five points and reach main",
          "[sampling]") {
  const SampledRun run = Profile("sampling_fp", {"-s", "process-tree", "-b", "fp"},
                                 {TestProgram("sampled_program_fp"), "split", "600"});
  CheckSplit(run.report);
  // 600 ms of CPU time at 1000 samples per second of it.
  const int64_t samples = Count(run.report, "SELECT count(*) FROM COMPOSITE_EVENTS");
  CHECK(samples >= 400);
  CHECK(samples <= 800);
  CHECK(Count(run.report, "SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE unwindMethod != 1") == 0);
  // Every sample has its frames, numbered from the leaf without gaps.
  CHECK(Count(run.report,
              "SELECT count(*) FROM (SELECT id, max(stackDepth) + 1 = count(*) AS whole "
              "FROM SAMPLING_CALLCHAINS GROUP BY id) WHERE whole") == samples);
  // The end line counts them.
  CHECK(run.result.err.find(" CPU samples") != std::string::npos);
}

TEST_CASE("DWARF unwinding of a program without frame pointers splits 70/30 and reaches main",
          "[sampling]") {
  const SampledRun run = Profile("sampling_dwarf", {"-s", "process-tree", "-b", "dwarf"},
                                 {TestProgram("sampled_program_nofp"), "split", "600"});
  CheckSplit(run.report);
  CHECK(Count(run.report, "SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE unwindMethod != 6") == 0);
}

TEST_CASE("by default a program without frame pointers is unwound through main", "[sampling]") {
  const SampledRun run =
      Profile("sampling_auto", {}, {TestProgram("sampled_program_nofp"), "split", "600"});
  CheckSplit(run.report);
  CHECK(Count(run.report, "SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE unwindMethod != 6") == 0);
}

TEST_CASE("a program that samples itself copies its stack, unwound through main by default",
          "[sampling]") {
  // perf_event_open refused: the program's own timer samples, each with the top of its stack.
  const SampledRun run = ProfilePerfRefused("sampling_refused_auto", {"-s", "process-tree"},
                                            {TestProgram("sampled_program_nofp"), "split", "1200"});
  CheckSplit(run.report);
  CHECK(Count(run.report, "SELECT count(*) FROM SAMPLING_CALLCHAINS WHERE unwindMethod != 6") == 0);
}

// native_chain.py's samples in chain_inner (a library without frame pointers, called through
// ctypes): how many have chain_middle and chain_outer as their callers, and how many reach the
// Python function that made the call.
struct NativeChain {
  int64_t inner = 0;
  int64_t whole_native = 0;
  int64_t reach_python = 0;
};

NativeChain ProfileNativeChain(const std::string& name, const std::vector<std::string>& options) {
  const SampledRun run = Profile(
      name, options, {PROF_PYTHON3, PROF_NATIVE_CHAIN_PY, PROF_NATIVE_CHAIN_LIBRARY, "1.0"});
  const std::string inner_samples =
      "SELECT f.id FROM SAMPLING_CALLCHAINS f JOIN StringIds n ON n.id = f.symbol "
      "WHERE f.stackDepth = 0 AND n.value = 'chain_inner'";
  const auto with_frame = [&](const std::string& condition) {
    return Count(run.report, "SELECT count(*) FROM (" + inner_samples +
                                 ") i WHERE EXISTS (SELECT 1 FROM SAMPLING_CALLCHAINS c JOIN "
                                 "StringIds n ON n.id = c.symbol WHERE c.id = i.id AND " +
                                 condition + ")");
  };
  NativeChain chain;
  chain.inner = Count(run.report, "SELECT count(*) FROM (" + inner_samples + ")");
  chain.whole_native =
      Count(run.report, "SELECT count(*) FROM (" + inner_samples +
                            ") i WHERE (SELECT count(*) FROM SAMPLING_CALLCHAINS c JOIN "
                            "StringIds n ON n.id = c.symbol WHERE c.id = i.id AND "
                            "((c.stackDepth = 1 AND n.value = 'chain_middle') OR "
                            "(c.stackDepth = 2 AND n.value = 'chain_outer'))) = 2");
  chain.reach_python = with_frame("n.value = 'call_into_c' AND c.unwindMethod = 1001");
  return chain;
}

TEST_CASE("by default Python's calls into code without frame pointers have whole stacks",
          "[sampling]") {
  const NativeChain chain = ProfileNativeChain("sampling_native_chain", {});
  INFO("chain_inner " << chain.inner << ", with middle and outer " << chain.whole_native
                      << ", reaching call_into_c " << chain.reach_python);
  // 1 s of CPU time, most of it in chain_inner, at 1000 samples a second.
  REQUIRE(chain.inner >= 500);
  CHECK(chain.whole_native * 100 >= chain.inner * 95);
  CHECK(chain.reach_python * 100 >= chain.inner * 95);
  // With frame pointers only, the same stacks break below chain_inner: the test tells them apart.
  const NativeChain fp = ProfileNativeChain("sampling_native_chain_fp", {"-b", "fp"});
  INFO("-b fp: chain_inner " << fp.inner << ", with middle and outer " << fp.whole_native);
  REQUIRE(fp.inner >= 500);
  CHECK(fp.whole_native * 100 < fp.inner * 50);
}

TEST_CASE("backtrace none keeps the sampled function only", "[sampling]") {
  const SampledRun run = Profile("sampling_none", {"-s", "process-tree", "-b", "none"},
                                 {TestProgram("sampled_program_nofp"), "split", "400"});
  CHECK(Count(run.report, "SELECT max(stackDepth) FROM SAMPLING_CALLCHAINS") == 0);
  CheckShare(run.report);
}

TEST_CASE("a fork child is sampled under its own pid", "[sampling]") {
  const SampledRun run = Profile("sampling_fork", {"-s", "process-tree"},
                                 {TestProgram("sampled_program_fp"), "fork", "400"});
  const size_t at = run.result.out.find("child=");
  REQUIRE(at != std::string::npos);
  const int64_t child = std::atoll(run.result.out.c_str() + at + 6);
  const Rows pids = QueryRows(run.report,
                              "SELECT DISTINCT globalTid / 16777216 % 16777216 FROM "
                              "COMPOSITE_EVENTS ORDER BY 1");
  REQUIRE(pids.size() == 2);
  CheckSplit(run.report, child);
}

TEST_CASE("a program killed right after a CPU burst keeps its samples", "[sampling]") {
  const SampledRun run = Profile("sampling_kill", {"-s", "process-tree"},
                                 {TestProgram("sampled_program_fp"), "kill", "400"}, 128 + 9);
  CheckSplit(run.report);
}

TEST_CASE("context switch tracing shows a sleeping thread switched out blocked and back in",
          "[sampling]") {
  const SampledRun run = Profile("sampling_switches", {"-s", "none", "--cpuctxsw", "process-tree"},
                                 {TestProgram("sampled_program_fp"), "sleep"});
  // -s none: switches without samples.
  CHECK(Count(run.report, "SELECT count(*) FROM sqlite_master WHERE name = 'COMPOSITE_EVENTS'") ==
        0);
  const int64_t blocked = Count(run.report,
                                "SELECT count(*) FROM SCHED_EVENTS WHERE isSchedIn = 0 AND "
                                "threadState = 2 AND threadBlock = 1");
  CHECK(blocked >= 20);
  // Each thread's switches alternate out and in.
  const Rows switches = QueryRows(
      run.report, "SELECT globalTid, isSchedIn FROM SCHED_EVENTS ORDER BY globalTid, start");
  for (size_t i = 1; i < switches.size(); ++i) {
    if (switches[i][0] != switches[i - 1][0]) continue;
    INFO("switch " << i);
    CHECK(switches[i][1] != switches[i - 1][1]);
  }
}

TEST_CASE("prof stats cpu_sample_sum names the hot function first", "[sampling]") {
  const SampledRun run = Profile("sampling_stats", {"-s", "process-tree"},
                                 {TestProgram("sampled_program_fp"), "split", "400"});
  const CommandResult stats = RunCommand(
      {ProfBinary(), "stats", "-q", "-r", "cpu_sample_sum", "--format", "csv", run.report});
  INFO(stats.err);
  REQUIRE(stats.exit_code == 0);
  const size_t header_end = stats.out.find('\n', stats.out.find("Self (%)"));
  REQUIRE(header_end != std::string::npos);
  const std::string first =
      stats.out.substr(header_end + 1, stats.out.find('\n', header_end + 1) - header_end - 1);
  CHECK(first.find(",hot_seventy,") != std::string::npos);
}

TEST_CASE("without -s prof samples and traces scheduling as nsys does by default", "[sampling]") {
  const SampledRun run =
      Profile("sampling_default", {}, {TestProgram("sampled_program_fp"), "split", "400"});
  CheckSplit(run.report);
  CHECK(Count(run.report, "SELECT count(*) FROM SCHED_EVENTS") > 0);
  CHECK(run.result.err.find("warning") == std::string::npos);
}

TEST_CASE("without -s and with perf_event_open refused sampling is off and said once",
          "[sampling]") {
  // Only an explicit -s makes the program sample itself with a timer signal.
  const SampledRun run = ProfilePerfRefused("sampling_default_refused", {},
                                            {TestProgram("sampled_program_fp"), "split", "400"});
  const std::string warning =
      "prof: warning: perf_event_open refused (PROF_PERF_EVENTS=off): CPU sampling and --cpuctxsw "
      "are off (-s process-tree samples with a timer signal instead)\n";
  CHECK(run.result.err.find(warning) != std::string::npos);
  CHECK(run.result.err.find("warning", run.result.err.find(warning) + warning.size()) ==
        std::string::npos);
  CHECK(Count(run.report,
              "SELECT count(*) FROM sqlite_master WHERE name IN ('COMPOSITE_EVENTS', "
              "'SCHED_EVENTS')") == 0);
  CHECK(Count(run.report, "SELECT count(*) FROM PROCESSES") == 1);
}

TEST_CASE("with perf_event_open refused the program samples itself to the same 70/30 answer",
          "[sampling]") {
  const SampledRun run = ProfilePerfRefused("sampling_refused", {"-s", "process-tree"},
                                            {TestProgram("sampled_program_fp"), "split", "1200"});
  CHECK(run.result.err.find("prof: warning: perf_event_open refused (PROF_PERF_EVENTS=off): the "
                            "program samples itself (a CPU-time timer signal); no --cpuctxsw\n") !=
        std::string::npos);
  CheckSplit(run.report);
  const int64_t samples = Count(run.report, "SELECT count(*) FROM COMPOSITE_EVENTS");
  CHECK(samples >= 800);
  CHECK(samples <= 1600);
  CHECK(Count(run.report, "SELECT count(*) FROM sqlite_master WHERE name = 'SCHED_EVENTS'") == 0);
}

// The pids of python_workers.py's two workers, from its "workers=<pid>,<pid>" line.
std::vector<std::string> WorkerPids(const SampledRun& run) {
  const size_t at = run.result.out.find("workers=");
  REQUIRE(at != std::string::npos);
  return {std::to_string(std::atoll(run.result.out.c_str() + at + 8)),
          std::to_string(std::atoll(run.result.out.c_str() + run.result.out.find(',', at) + 1))};
}

// Each of python_workers.py's two worker processes spends its samples in slow_transform, named
// as a Python frame with the script's file and the loop's lines, under the worker's chain.
void CheckPythonWorkers(const SampledRun& run) {
  for (const std::string& worker : WorkerPids(run)) {
    INFO("worker " << worker);
    // The function a worker's samples spend themselves in most is the script's slow_transform,
    // with its file; a Python frame's originalIP is its line.
    const Rows top = QueryRows(
        run.report,
        "SELECT n.value, m.value, f.unwindMethod, count(*) AS c FROM SAMPLING_CALLCHAINS f "
        "JOIN COMPOSITE_EVENTS s ON s.id = f.id JOIN StringIds n ON n.id = f.symbol "
        "JOIN StringIds m ON m.id = f.module WHERE f.stackDepth = 0 AND "
        "s.globalTid / 16777216 % 16777216 = " +
            worker + " GROUP BY 1, 2, 3 ORDER BY c DESC LIMIT 1");
    REQUIRE(top.size() == 1);
    CHECK(top[0][0] == "slow_transform");
    CHECK(top[0][1] == PROF_PYTHON_WORKERS);
    CHECK(top[0][2] == "1001");
    // Its lines are the loop's (lines 11 and 12 of the script), its callers the worker's chain.
    CHECK(Count(run.report,
                "SELECT count(*) FROM SAMPLING_CALLCHAINS f JOIN StringIds n ON n.id = f.symbol "
                "WHERE n.value = 'slow_transform' AND f.originalIP NOT IN (11, 12, 13)") == 0);
    CHECK(Count(run.report,
                "SELECT count(*) FROM SAMPLING_CALLCHAINS f JOIN StringIds n ON n.id = f.symbol "
                "JOIN COMPOSITE_EVENTS s ON s.id = f.id WHERE n.value = 'worker' AND "
                "f.unwindMethod = 1001 AND s.globalTid / 16777216 % 16777216 = " +
                    worker) > 0);
  }
}

TEST_CASE("Python workers' samples name their slow function with file and line first",
          "[sampling]") {
  const SampledRun run =
      Profile("sampling_python", {"-s", "process-tree"}, {PROF_PYTHON3, PROF_PYTHON_WORKERS});
  CheckPythonWorkers(run);
  // The main process mostly waits: its switches out are mostly blocked ones.
  CHECK(Count(run.report,
              "SELECT count(*) FROM SCHED_EVENTS WHERE isSchedIn = 0 AND threadBlock = 1") > 10);
}

// Each worker of python_workers.py, in PROCESSES: named `role`.
void CheckWorkerNames(const SampledRun& run, const std::string& role) {
  for (const std::string& worker : WorkerPids(run)) {
    INFO("worker " << worker);
    const Rows names = QueryRows(run.report, "SELECT name FROM PROCESSES WHERE pid = " + worker);
    REQUIRE(names.size() == 1);
    CHECK(names[0][0] == role);
  }
}

TEST_CASE("multiprocessing workers are named by their role: a Pool's, or their target's",
          "[sampling]") {
  const SampledRun processes = Profile("sampling_roles", {}, {PROF_PYTHON3, PROF_PYTHON_WORKERS});
  CheckWorkerNames(processes, "worker");
  const SampledRun pool =
      Profile("sampling_roles_pool", {}, {PROF_PYTHON3, PROF_PYTHON_WORKERS, "pool"});
  CheckWorkerNames(pool, "PoolWorker");
}

TEST_CASE("with perf_event_open refused Python workers' samples still name their slow function",
          "[sampling]") {
  const SampledRun run = ProfilePerfRefused("sampling_python_refused", {"-s", "process-tree"},
                                            {PROF_PYTHON3, PROF_PYTHON_WORKERS});
  CHECK(run.result.err.find("prof: warning: perf_event_open refused") != std::string::npos);
  CheckPythonWorkers(run);
}

TEST_CASE("sampling options prof cannot honour are refused in one line", "[sampling]") {
  const struct {
    std::vector<std::string> options;
    std::string error;
  } cases[] = {
      {{"-s", "system-wide"},
       "--sample=system-wide is not supported: prof samples the program's process tree; prof "
       "accepts --sample=process-tree|none"},
      {{"--cpuctxsw", "all"},
       "--cpuctxsw=all is not a scope; prof accepts "
       "--cpuctxsw=process-tree|none"},
      {{"-b", "lbr"},
       "--backtrace=lbr is not supported: prof unwinds with frame pointers or DWARF; prof accepts "
       "--backtrace=auto|fp|dwarf|none"},
      {{"--sampling-frequency", "0"},
       "--sampling-frequency=0 is not a rate between 1 and 100000 samples per second"},
      {{"--sampling-period", "500"},
       "--sampling-period=500 is not a period in ns of CPU time between 10000 and 1000000000"},
      {{"--sampling-frequency", "100", "--sampling-period", "1000000"},
       "--sampling-frequency and --sampling-period set the same rate: give one"},
  };
  for (const auto& test : cases) {
    std::vector<std::string> argv = {ProfBinary(), "profile", "-o",
                                     MakeTempDir("sampling_refusals") + "/r"};
    argv.insert(argv.end(), test.options.begin(), test.options.end());
    argv.push_back("true");
    const CommandResult result = RunCommand(argv);
    INFO(test.error);
    CHECK(result.exit_code == 1);
    CHECK(result.err == "prof: error: " + test.error + "\n");
  }
}

}  // namespace
