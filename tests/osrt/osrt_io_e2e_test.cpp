// End-to-end: sleeps, blocking pipe reads, the threshold, and the names of 64-bit and fortified
// aliases, profiled with `prof profile --trace=osrt`.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/osrt/osrt_report.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using storage::GlobalTid;

void CheckCalls(const std::vector<OsrtRow>& rows, size_t count, int64_t global_tid,
                int64_t min_duration_ns, int64_t return_value) {
  REQUIRE(rows.size() == count);
  for (const OsrtRow& row : rows) {
    INFO(row.name << " [" << row.start << ", " << row.end << "]");
    CHECK(row.global_tid == global_tid);
    CHECK(row.duration() >= min_duration_ns);
    CHECK(row.return_value == return_value);
    CHECK(row.nesting_level == 0);
  }
}

}  // namespace

TEST_CASE("each sleep is one row lasting at least what it slept") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-sleeps"), "osrt_sleeps");
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const auto usleeps = OsrtRows(run.report, "usleep");
  const auto nanosleeps = OsrtRows(run.report, "nanosleep");
  const auto clock_sleeps = OsrtRows(run.report, "clock_nanosleep");
  CheckCalls(usleeps, 3, GlobalTid(pid, pid), 2'000'000, 0);
  CheckCalls(nanosleeps, 2, GlobalTid(pid, pid), 3'000'000, 0);
  CheckCalls(clock_sleeps, 1, GlobalTid(pid, pid), 1'000'000, 0);
  // One thread, one call at a time: the rows follow each other in program order.
  CHECK(usleeps[0].end <= usleeps[1].start);
  CHECK(usleeps[2].end <= nanosleeps[0].start);
  CHECK(nanosleeps[1].end <= clock_sleeps[0].start);
}

TEST_CASE("calls shorter than --osrt-threshold are not recorded") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-threshold"), "osrt_sleeps", {},
                                      {"--osrt-threshold=1000000000"});
  CHECK(OsrtRows(run.report, "usleep").empty());
  CHECK(OsrtRows(run.report, "nanosleep").empty());
  CHECK(OsrtRows(run.report, "clock_nanosleep").empty());
}

TEST_CASE("blocking reads belong to the reader - the writer's sleeps to the writer") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-pipe"), "osrt_pipe_reads");
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const uint32_t writer = static_cast<uint32_t>(ValueAfter(run.out, "writer_tid="));
  REQUIRE(writer != pid);
  // Each read waits for one 20 ms sleep of the writer, less the moment between the writer's
  // previous write and this read's start.
  CheckCalls(OsrtRowsOfThread(run.report, "read", GlobalTid(pid, pid)), 3, GlobalTid(pid, pid),
             10'000'000, 1);
  CheckCalls(OsrtRows(run.report, "usleep"), 3, GlobalTid(pid, writer), 20'000'000, 0);
}

TEST_CASE("64-bit and fortified aliases are recorded under the names the program called") {
  const std::string dir = MakeTempDir("osrt-aliases");
  const OsrtRun run = ProfileWithOsrt(dir, "osrt_aliases", {dir}, {"--osrt-threshold=0"});
  const uint32_t pid = static_cast<uint32_t>(ValueAfter(run.out, "pid="));
  const int64_t main_thread = GlobalTid(pid, pid);
  const auto on_main = [&](const char* name) {
    return OsrtRowsOfThread(run.report, name, main_thread);
  };
  CheckCalls(on_main("__open64_2"), 1, main_thread, 1, on_main("__open64_2").at(0).return_value);
  CHECK(on_main("__open64_2").at(0).return_value >= 3);
  CheckCalls(on_main("__read_chk"), 1, main_thread, 1, 1);
  CheckCalls(on_main("dup"), 1, main_thread, 0, ValueAfter(run.out, "dup="));
  CHECK(on_main("dup").at(0).return_value >= 3);
  CheckCalls(on_main("dup2"), 1, main_thread, 0, 100);
  CheckCalls(on_main("dup3"), 1, main_thread, 0, 101);
  CheckCalls(on_main("close"), 4, main_thread, 0, 0);
  REQUIRE(on_main("fopen64").size() == 1);
  CHECK(on_main("fopen64").at(0).return_value != 0);
  REQUIRE(on_main("__fgets_chk").size() == 1);
  CHECK(on_main("__fgets_chk").at(0).return_value != 0);
  CheckCalls(on_main("fclose"), 1, main_thread, 0, 0);
  CheckCalls(on_main("stat64"), 1, main_thread, 0, 0);
  CheckCalls(on_main("mmap64"), 1, main_thread, 0, ValueAfter(run.out, "mapping="));
  CheckCalls(on_main("munmap"), 1, main_thread, 0, 0);
  for (const char* plain : {"open", "open64", "read", "fopen", "fgets", "stat", "mmap"}) {
    INFO(plain);
    CHECK(on_main(plain).empty());
  }
  // The writer thread opens the FIFO twice with constant flags (plain open64) and writes a line
  // each time; with a zero threshold every one of its calls is a row.
  const auto writer_opens = OsrtRows(run.report, "open64");
  REQUIRE(writer_opens.size() == 2);
  CHECK(writer_opens[0].global_tid != main_thread);
  CHECK(OsrtRowsOfThread(run.report, "write", writer_opens[0].global_tid).size() == 2);
  CHECK(OsrtRowsOfThread(run.report, "usleep", writer_opens[0].global_tid).size() == 4);
}

}  // namespace prof::test
