// End-to-end: fork (the child's calls under the child's pid, fork itself only in the parent),
// calls made by signal handlers while the interrupted thread is inside a traced call, and thread
// cancellation through a traced call.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/osrt/osrt_report.h"
#include "tests/support/test_support.h"

namespace prof::test {

using storage::GlobalTid;
using storage::PidOf;

TEST_CASE("a fork child's calls appear under the child's pid and fork only under the parent's") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-fork"), "osrt_fork");
  const uint32_t parent = static_cast<uint32_t>(ValueAfter(run.out, "parent="));
  const uint32_t child = static_cast<uint32_t>(ValueAfter(run.out, "child="));

  const auto forks = OsrtRows(run.report, "fork");
  REQUIRE(forks.size() == 1);
  CHECK(forks[0].global_tid == GlobalTid(parent, parent));
  CHECK(forks[0].return_value == child);

  const auto sleeps = OsrtRows(run.report, "usleep");
  REQUIRE(sleeps.size() == 2);
  for (const OsrtRow& sleep : sleeps) {
    CHECK(sleep.global_tid == GlobalTid(child, child));
    CHECK(sleep.duration() >= 2'000'000);
    CHECK(sleep.return_value == 0);
  }

  const auto waits = OsrtRows(run.report, "waitpid");
  REQUIRE(waits.size() == 1);
  CHECK(waits[0].global_tid == GlobalTid(parent, parent));
  CHECK(waits[0].return_value == child);
  // The parent's wait ends after the child's last call: both clocks are CLOCK_MONOTONIC.
  CHECK(waits[0].end >= sleeps[1].end);

  const auto child_rows =
      QueryRows(run.report, "SELECT count(*) FROM OSRT_API WHERE (globalTid >> 24) & 16777215 = " +
                                std::to_string(child));
  CHECK(child_rows.at(0).at(0) == "2");
  CHECK(PidOf(forks[0].global_tid) == parent);
}

TEST_CASE("a signal handler's calls nest one level inside the interrupted call") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-signal"), "osrt_signal");
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const int64_t main_thread = GlobalTid(pid, pid);
  const auto reads = OsrtRowsOfThread(run.report, "read", main_thread);
  const auto sleeps = OsrtRowsOfThread(run.report, "nanosleep", main_thread);
  REQUIRE(reads.size() == 2);
  REQUIRE(sleeps.size() == 2);
  // SA_RESTART: the handler's byte ends the restarted read. Without it: -1 (EINTR, which the
  // program checked was still in errno).
  CHECK(reads[0].return_value == 1);
  CHECK(reads[1].return_value == -1);
  for (size_t i = 0; i < 2; ++i) {
    INFO("alarm " << i);
    CHECK(reads[i].nesting_level == 0);
    CHECK(sleeps[i].nesting_level == 1);
    CHECK(sleeps[i].return_value == 0);
    CHECK(sleeps[i].duration() >= 3'000'000);
    CHECK(sleeps[i].start >= reads[i].start);
    CHECK(sleeps[i].end <= reads[i].end);
  }
}

TEST_CASE("each handler installation is a sigaction row") {
  // osrt_signal installs its SIGALRM handler twice; the threshold 0 keeps even fast calls.
  const OsrtRun run =
      ProfileWithOsrt(MakeTempDir("osrt-sigaction"), "osrt_signal", {}, {"--osrt-threshold=0"});
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const auto installs = OsrtRowsOfThread(run.report, "sigaction", GlobalTid(pid, pid));
  REQUIRE(installs.size() == 2);
  for (const OsrtRow& row : installs) CHECK(row.return_value == 0);
}

TEST_CASE("a thread cancelled inside a traced call unwinds through the wrapper") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-cancel"), "osrt_cancel");
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  // ProfileWithOsrt checked that the program exited 0: the join saw PTHREAD_CANCELED.
  CHECK(OsrtRows(run.report, "read").empty());
  const auto sleeps = OsrtRows(run.report, "usleep");
  REQUIRE(sleeps.size() == 1);
  CHECK(sleeps[0].global_tid == GlobalTid(pid, pid));
}

}  // namespace prof::test
