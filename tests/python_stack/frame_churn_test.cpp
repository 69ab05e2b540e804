// prof never crashes a Python program (issue 42): frame_churn.py makes and frees frames, data-stack
// chunks, generators and code objects in three threads and two fork children (one _exits after
// its burst, one is SIGKILLed in it), under prof with every OS-runtime call traced and carrying a
// backtrace (its Python frames read in the program, while CPython may be unlinking them) and the
// default sampling (a process that runs CPython reads its Python frames in the sampling signal),
// while a CPU hog competes for the cores. Before the reads were made fault-proof, the program died
// of SIGSEGV in every such run (5 of 5 on the build machine, CPython 3.11: a generator function's
// frame that started a data-stack chunk). bench/stress/python_frame_churn.sh runs it 100 times.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::kDebianPython;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::QueryCount;
using prof::test::RunCommand;
using prof::test::SegvDiesAsUsual;

namespace {

// A process that burns a core until destroyed.
class CpuHog {
 public:
  CpuHog() : pid_(fork()) {
    if (pid_ == 0) {
      for (volatile unsigned spin = 0;; spin = spin + 1) {
      }
    }
  }
  ~CpuHog() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  CpuHog(const CpuHog&) = delete;
  CpuHog& operator=(const CpuHog&) = delete;

 private:
  pid_t pid_;
};

TEST_CASE("frames freed under prof's in-process reads never crash the program",
          "[python][robustness]") {
  const CpuHog hog;
  const std::string directory = MakeTempDir("python_frame_churn");
  for (int run = 0; run < 3; ++run) {
    const std::string report = directory + "/r" + std::to_string(run) + ".sqlite";
    const CommandResult result = RunCommand({ProfBinary(), "profile", "-t", "osrt",
                                             "--osrt-threshold=0", "--osrt-backtrace-threshold=1",
                                             "-o", report, kDebianPython, PROF_FRAME_CHURN, "150"});
    INFO("run " << run << "\nprof stdout:\n" << result.out << "\nprof stderr:\n" << result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out == "ok\n");
    // The reads did happen: calls' backtraces and samples carry the churning frames.
    CHECK(QueryCount(report,
                     "SELECT count(*) FROM OSRT_API a WHERE a.callchainId IN (SELECT c.id FROM "
                     "OSRT_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol WHERE s.value = "
                     "'recurse')") > 1000);
    CHECK(QueryCount(report,
                     "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON "
                     "s.id = c.symbol WHERE s.value = 'recurse' AND c.unwindMethod = 1001") > 10);
    // The child its parent SIGKILLed is said, and kept in the report.
    CHECK(result.err.find("(python3) was killed by SIGKILL (signal 9)") != std::string::npos);
    CHECK(QueryCount(report,
                     "SELECT count(*) FROM DIAGNOSTIC_EVENT WHERE text = 'this process was "
                     "killed by SIGKILL (signal 9)'") == 1);
  }
}

TEST_CASE("a process a signal killed is said at once, and kept in the report",
          "[python][robustness]") {
  const std::string report = MakeTempDir("killed_by_signal") + "/r.sqlite";
  const CommandResult result = RunCommand({ProfBinary(), "profile", "-t", "none", "-s", "none",
                                           "-o", report, kDebianPython, PROF_KILLED_BY_SIGNAL},
                                          "", SegvDiesAsUsual());
  INFO("prof stdout:\n" << result.out << "\nprof stderr:\n" << result.err);
  // The program's exit code is the shell's for a signal: 128 + SIGABRT.
  CHECK(result.exit_code == 134);
  const std::vector<std::string> children = prof::test::PrintedValues(result.out, "child");
  REQUIRE(children.size() == 1);
  CHECK(result.err.find("warning: process " + children[0] +
                        " (python3) was killed by SIGSEGV (signal 11") != std::string::npos);
  CHECK(result.err.find("was killed by SIGABRT (signal 6") != std::string::npos);
  CHECK(QueryCount(report,
                   "SELECT count(*) FROM DIAGNOSTIC_EVENT WHERE text LIKE 'this process was "
                   "killed by SIGSEGV (signal 11%' AND globalPid / 16777216 % 16777216 = " +
                       children[0]) == 1);
  CHECK(QueryCount(
            report,
            "SELECT count(*) FROM PROF_SESSION WHERE name = 'exit_status' AND value = '134'") == 1);
}

TEST_CASE("a Python program that resets every signal runs to its end, sampled",
          "[python][robustness]") {
  // Python processes sample themselves by default, with a real-time signal whose default action
  // terminates: before the guard, this program died of it at the next tick.
  const std::string report = MakeTempDir("reset_signals") + "/r.sqlite";
  const CommandResult result = RunCommand(
      {ProfBinary(), "profile", "-t", "none", "-o", report, kDebianPython, PROF_RESET_SIGNALS});
  INFO("prof stdout:\n" << result.out << "\nprof stderr:\n" << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "done\n");
  // 0.5 s of CPU in burn() at the default 1 kHz: its samples (a loaded machine stretches nothing,
  // the timers count CPU time).
  const int64_t in_burn = QueryCount(
      report,
      "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS AS c JOIN StringIds AS s ON s.id = "
      "c.symbol WHERE s.value = 'burn'");
  CHECK(in_burn >= 250);
  CHECK(in_burn <= 750);
}

}  // namespace
