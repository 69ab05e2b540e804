// GPU records however a CUDA program ends, on the CUPTI test double (cupti_double.cpp), which hands
// buffers over only when flushed, as CUPTI does with buffers that are not full: every kernel whose
// launch the report holds is in the report too, or counted in cuda_kernels_lost, whether the
// program exits, _exits, execs, dies of a signal it can catch or is SIGKILLed after a flush period.
// The program's exit code and death by signal stay its own, and the program sees SIG_DFL where
// prof stands in for it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace prof::test {
namespace {

constexpr int kLaunches = 3000;

struct Run {
  std::string report;
  CommandResult result;
};

Run Profile(const std::string& name, const std::vector<std::string>& arguments) {
  Run run;
  run.report = MakeTempDir("cuda_end_" + name) + "/r.sqlite";
  std::vector<std::string> argv = {
      ProfBinary(), "profile", "-q", "-t",       "cuda",
      "-s",         "none",    "-o", run.report, TestProgram("cuda_end_program")};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  run.result = RunCommand(argv, "", SegvDiesAsUsual());
  INFO(run.result.err);
  REQUIRE(std::filesystem::exists(run.report));
  return run;
}

int64_t Number(const std::string& report, const std::string& sql) {
  const auto rows = QueryRows(report, sql);
  REQUIRE(rows.size() == 1);
  return std::stoll(rows[0][0]);
}

int64_t Launches(const std::string& report) {
  return Number(report,
                "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON "
                "s.id = r.nameId WHERE s.value = 'cudaLaunchKernel_v7000'");
}

int64_t Kernels(const std::string& report) {
  return Number(report, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
}

int64_t KernelsLost(const std::string& report) {
  return Number(report, "SELECT value FROM PROF_STATS WHERE name = 'cuda_kernels_lost'");
}

// Every kernel belongs to a recorded launch of the same process (correlation id).
void CheckKernelsMatchLaunches(const std::string& report) {
  CHECK(Number(report,
               "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE (globalPid >> 24, "
               "correlationId) NOT IN (SELECT globalTid >> 24, correlationId FROM "
               "CUPTI_ACTIVITY_KIND_RUNTIME)") == 0);
}

TEST_CASE("a CUDA program's kernels reach the report however it ends", "[cuda_end]") {
  struct Ending {
    const char* mode;
    int exit_code;
  };
  const Ending ending =
      GENERATE(Ending{"exit", 0}, Ending{"_exit", 3}, Ending{"exec", 0},
               Ending{"sigterm", 128 + 15}, Ending{"segv", 128 + 11}, Ending{"abort", 128 + 6},
               Ending{"handler", 5}, Ending{"asks", 128 + 15});
  INFO(ending.mode);
  const Run run = Profile(ending.mode, {ending.mode, std::to_string(kLaunches)});
  CHECK(run.result.exit_code == ending.exit_code);
  CHECK(Launches(run.report) == kLaunches);
  CHECK(Kernels(run.report) == kLaunches);
  CHECK(KernelsLost(run.report) == 0);
  CheckKernelsMatchLaunches(run.report);
}

TEST_CASE("SIGKILL after a flush period loses no kernel", "[cuda_end]") {
  const Run run = Profile("sigkill", {"sigkill", std::to_string(kLaunches)});
  CHECK(run.result.exit_code == 128 + 9);
  CHECK(Launches(run.report) == kLaunches);
  CHECK(Kernels(run.report) == kLaunches);
  CHECK(KernelsLost(run.report) == 0);
}

TEST_CASE("launches whose kernel never came are counted, captured launches are not", "[cuda_end]") {
  SECTION("kernels that never run") {
    const Run run = Profile("lose", {"lose", std::to_string(kLaunches), "17"});
    CHECK(run.result.exit_code == 0);
    CHECK(Launches(run.report) == kLaunches + 17);
    CHECK(Kernels(run.report) == kLaunches);
    CHECK(KernelsLost(run.report) == 17);
    CHECK(Number(run.report,
                 "SELECT count(*) FROM DIAGNOSTIC_EVENT WHERE text LIKE "
                 "'17 CUDA kernel launches never got their kernel record%'") == 1);
  }
  SECTION("launches into a stream being captured") {
    const Run run = Profile("capture", {"capture", std::to_string(kLaunches), "40"});
    CHECK(run.result.exit_code == 0);
    CHECK(Launches(run.report) == kLaunches + 40);
    CHECK(Kernels(run.report) == kLaunches);
    CHECK(KernelsLost(run.report) == 0);
  }
}

TEST_CASE("a fork child never flushes CUPTI, and its parent's kernels all arrive", "[cuda_end]") {
  const Run run = Profile("fork", {"fork", std::to_string(kLaunches), "500"});
  CHECK(run.result.exit_code == 3);
  CHECK(Launches(run.report) == kLaunches);
  CHECK(Kernels(run.report) == kLaunches);
  CHECK(KernelsLost(run.report) == 0);
}

TEST_CASE("a flood of launches from many threads, then _exit: kept + lost == launched",
          "[cuda_end]") {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 40000;
  const Run run =
      Profile("threads", {"threads", std::to_string(kPerThread), std::to_string(kThreads)});
  CHECK(run.result.exit_code == 3);
  const int64_t dropped =
      Number(run.report, "SELECT value FROM PROF_STATS WHERE name = 'dropped_records'");
  CHECK(dropped == 0);
  CHECK(Launches(run.report) == kThreads * kPerThread);
  CHECK(Kernels(run.report) + KernelsLost(run.report) == Launches(run.report));
  CHECK(KernelsLost(run.report) ==
        Number(run.report, "SELECT value FROM PROF_STATS WHERE name = 'cuda_dropped_records'"));
  CheckKernelsMatchLaunches(run.report);
}

}  // namespace
}  // namespace prof::test
