// `prof export` interrupted by SIGINT or SIGTERM while it writes: the signal ends it as it would
// any program, and its partial output file is gone.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "tests/robustness/hostile_reports.h"
#include "tests/support/test_support.h"

extern char** environ;

namespace prof::robustness::test {
namespace {

namespace fs = std::filesystem;

// A report whose export takes seconds: the valid report's NVTX range, 1.5 million times.
std::string LargeReport() {
  const std::string report = WriteValidReport("export_interrupt_report");
  ExecSql(report,
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500000) "
          "INSERT INTO NVTX_EVENTS SELECT e.* FROM NVTX_EVENTS AS e, n");
  return report;
}

// Starts `argv` with SIGINT and SIGTERM at their default actions, whatever the test runner's are.
pid_t Spawn(const std::vector<std::string>& argv) {
  std::vector<char*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
  pointers.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, pointers[0], nullptr, &attributes, pointers.data(), environ);
  posix_spawnattr_destroy(&attributes);
  REQUIRE(error == 0);
  return pid;
}

bool HasPartialFile(const std::string& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".partial-") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("an interrupted export removes its partial file", "[robustness]") {
  const std::string report = LargeReport();
  for (const int signal : {SIGINT, SIGTERM}) {
    const std::string out_dir = prof::test::MakeTempDir("export_interrupted");
    const pid_t pid = Spawn({prof::test::ProfBinary(), "export", "--type=jsonl", "-o",
                             out_dir + "/out.jsonl.gz", report});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!HasPartialFile(out_dir) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    INFO("signal " << signal);
    CHECK(HasPartialFile(out_dir));
    kill(pid, signal);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal);
    CHECK(fs::is_empty(out_dir));
  }
}

}  // namespace prof::robustness::test
