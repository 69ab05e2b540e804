// End-to-end: OS-runtime calls that last --osrt-backtrace-threshold carry the stack they were made
// from (OSRT_API.callchainId, OSRT_CALLCHAINS), with -s or --cpuctxsw: native frames of a program
// built with frame pointers, Python frames of a Python program blocked in a queue, in fork
// children and in a program SIGKILLed right after its calls, and for every call of a flood.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/osrt/osrt_report.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using storage::GlobalTid;
using Rows = std::vector<std::vector<std::string>>;

constexpr int kLoops = 8;
// poll(NULL, 0, 6 ms) always lasts this long; poll(NULL, 0, 0) never comes near it.
const std::vector<std::string> kBacktraces = {
    "--cpuctxsw=process-tree", "--osrt-backtrace-threshold=3000000", "--osrt-threshold=0"};

int64_t Count(const std::string& report, const std::string& sql) {
  return std::stoll(QueryRows(report, sql).at(0).at(0));
}

// The long polls of process `pid`: kLoops of them, each with the one callchain
// wait_for_input <- step <- blocking_loop <- main of the program; the short ones have none.
void CheckLoopStacks(const std::string& report, int64_t pid, bool resolved) {
  const std::string of_pid = " AND (o.globalTid >> 24) & 16777215 = " + std::to_string(pid);
  const Rows long_polls = QueryRows(
      report,
      "SELECT DISTINCT o.callchainId FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE "
      "s.value = 'poll' AND o.end - o.start >= 3000000" +
          of_pid);
  REQUIRE(long_polls.size() == 1);
  CHECK(Count(report,
              "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE s.value = "
              "'poll' AND o.end - o.start >= 3000000 AND o.callchainId = " +
                  long_polls[0][0] + of_pid) == kLoops);
  CHECK(long_polls[0][0] != "0");
  CHECK(Count(report,
              "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE s.value = "
              "'poll' AND o.end - o.start < 2000000 AND o.callchainId = 0" +
                  of_pid) == kLoops);
  const std::vector<std::string> frames = CallchainFrames(report, long_polls[0][0]);
  REQUIRE(frames.size() >= 4);
  if (resolved) {
    const std::string program = TestProgram("osrt_blocked");
    CHECK(frames[0] == "wait_for_input|" + program + "|0|1");
    CHECK(frames[1] == "step|" + program + "|0|1");
    CHECK(frames[2] == "blocking_loop|" + program + "|0|1");
    CHECK(frames[3] == "main|" + program + "|0|1");
  }
}

}  // namespace

TEST_CASE("a call blocked longer than the backtrace threshold names the functions it was made from",
          "[osrt][backtrace]") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-backtrace-loop"), "osrt_blocked",
                                      {"loop", std::to_string(kLoops)}, kBacktraces);
  CheckLoopStacks(run.report, ValueAfter(run.out, "pid="), true);
  // Only calls that lasted the threshold carry a backtrace. (Not "only the polls": on a loaded
  // machine, ASan's most of all, another call is sometimes preempted for 3 ms and rightly gets
  // one.)
  CHECK(Count(run.report,
              "SELECT count(*) FROM OSRT_API WHERE callchainId != 0 AND end - start < 3000000") ==
        0);
}

TEST_CASE("without sampling or scheduling or with a threshold of 0 calls carry no backtrace",
          "[osrt][backtrace]") {
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{"-s", "none", "--osrt-threshold=0"},
        std::vector<std::string>{"--cpuctxsw=process-tree", "--osrt-threshold=0",
                                 "--osrt-backtrace-threshold=0"}}) {
    INFO(options.back());
    const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-backtrace-off"), "osrt_blocked",
                                        {"loop", std::to_string(kLoops)}, options);
    CHECK(OsrtRows(run.report, "poll").size() == 2 * kLoops);
    CHECK(Count(run.report, "SELECT count(*) FROM OSRT_API WHERE callchainId != 0") == 0);
    CHECK(Count(run.report, "SELECT count(*) FROM sqlite_master WHERE name = 'OSRT_CALLCHAINS'") ==
          0);
  }
}

TEST_CASE("a fork child's blocked calls carry its own stacks under its pid", "[osrt][backtrace]") {
  const OsrtRun run = ProfileWithOsrt(MakeTempDir("osrt-backtrace-fork"), "osrt_blocked",
                                      {"fork", std::to_string(kLoops)}, kBacktraces);
  const int64_t child = ValueAfter(run.out, "child=");
  CheckLoopStacks(run.report, child, true);
  // The parent's one long call, its wait for the child, has its own stack.
  const Rows waits = QueryRows(
      run.report,
      "SELECT o.callchainId FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE s.value = "
      "'waitpid' AND o.globalTid = " +
          std::to_string(GlobalTid(ValueAfter(run.out, "pid="), ValueAfter(run.out, "pid="))));
  REQUIRE(waits.size() == 1);
  REQUIRE(waits[0][0] != "0");
  CHECK(CallchainFrames(run.report, waits[0][0]).at(0) ==
        "main|" + TestProgram("osrt_blocked") + "|0|1");
}

TEST_CASE("a program SIGKILLed right after its blocked calls keeps every call and its backtrace",
          "[osrt][backtrace]") {
  const std::string report = MakeTempDir("osrt-backtrace-kill") + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=osrt", "-o", report};
  argv.insert(argv.end(), kBacktraces.begin(), kBacktraces.end());
  argv.insert(argv.end(), {TestProgram("osrt_blocked"), "kill", std::to_string(kLoops)});
  const CommandResult result = RunCommand(argv);
  INFO("prof stderr:\n" << result.err);
  CHECK(result.exit_code == 128 + 9);
  // The frames are named while the records arrive, so usually before the kill; a process already
  // gone keeps its addresses (unresolved), and the count of frames either way.
  CheckLoopStacks(report, ValueAfter(result.out, "pid="), false);
  CHECK(Count(report, "SELECT value FROM PROF_STATS WHERE name = 'dropped_records'") == 0);
  CHECK(Count(report, "SELECT value FROM PROF_STATS WHERE name = 'malformed_records'") == 0);
}

TEST_CASE("a flood of calls with backtraces keeps or counts every call and shares its stacks",
          "[osrt][backtrace]") {
  constexpr int kPerThread = 20000;
  const OsrtRun run = ProfileWithOsrt(
      MakeTempDir("osrt-backtrace-flood"), "osrt_blocked", {"flood", std::to_string(kPerThread)},
      {"--cpuctxsw=process-tree", "--osrt-backtrace-threshold=1", "--osrt-threshold=0"});
  const int64_t kept = static_cast<int64_t>(OsrtRows(run.report, "poll").size());
  const int64_t dropped =
      Count(run.report, "SELECT value FROM PROF_STATS WHERE name = 'dropped_records'");
  CHECK(kept + dropped == 2 * kPerThread);
  CHECK(kept > 0);
  // Every kept call has a backtrace; the two threads call from one call site.
  CHECK(Count(run.report,
              "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE s.value "
              "= 'poll' AND o.callchainId = 0") == 0);
  const Rows flood_stacks = QueryRows(
      run.report,
      "SELECT DISTINCT o.callchainId FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE "
      "s.value = 'poll'");
  REQUIRE(flood_stacks.size() == 1);
  CHECK(CallchainFrames(run.report, flood_stacks[0][0]).at(0) ==
        "flood|" + TestProgram("osrt_blocked") + "|0|1");
  CHECK(Count(run.report, "SELECT value FROM PROF_STATS WHERE name = 'malformed_records'") == 0);
}

TEST_CASE("a Python main process blocked in a queue's get names the Python functions it waits in",
          "[osrt][backtrace]") {
  const std::string report = MakeTempDir("osrt-backtrace-python") + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=osrt", "-o", report};
  argv.insert(argv.end(), kBacktraces.begin(), kBacktraces.end());
  argv.insert(argv.end(), {kDebianPython, PROF_OSRT_BLOCKED_PY});
  const CommandResult result = RunCommand(argv);
  INFO("prof stderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  const int64_t pid = ValueAfter(result.out, "pid=");
  // The main thread's long reads of the queue's pipe: each waits for one of the 4 items.
  const Rows reads = QueryRows(
      report,
      "SELECT DISTINCT o.callchainId FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId WHERE "
      "s.value = 'read' AND o.end - o.start >= 10000000 AND o.globalTid = " +
          std::to_string(GlobalTid(pid, pid)));
  REQUIRE(reads.size() >= 1);
  for (const auto& read : reads) {
    INFO("callchain " << read[0]);
    const std::vector<std::string> frames = CallchainFrames(report, read[0]);
    // Innermost first, Python frames (unwindMethod 1001) with their files; the native frames of
    // the interpreter are replaced by them.
    size_t get = frames.size(), wait = frames.size(), main = frames.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].rfind("Queue.get|", 0) == 0) get = i;
      if (frames[i] == "wait_for_batch|" + std::string(PROF_OSRT_BLOCKED_PY) + "|0|1001") wait = i;
      if (frames[i] == "main|" + std::string(PROF_OSRT_BLOCKED_PY) + "|0|1001") main = i;
    }
    CHECK(get < wait);
    CHECK(wait == get + 1);
    CHECK(main == wait + 1);
    CHECK(frames.back() == "<module>|" + std::string(PROF_OSRT_BLOCKED_PY) + "|0|1001");
    CHECK(frames.at(get).find("/multiprocessing/queues.py|0|1001") != std::string::npos);
  }
}

}  // namespace prof::test

namespace prof::test {

TEST_CASE("prof merge keeps each OS-runtime call with its own backtrace", "[osrt][backtrace]") {
  const std::string dir = MakeTempDir("osrt-backtrace-merge");
  const OsrtRun first = ProfileWithOsrt(MakeTempDir("osrt-backtrace-merge-a"), "osrt_blocked",
                                        {"loop", "3"}, kBacktraces);
  const OsrtRun second = ProfileWithOsrt(MakeTempDir("osrt-backtrace-merge-b"), "osrt_blocked",
                                         {"fork", "3"}, kBacktraces);
  const std::string merged = dir + "/all.sqlite";
  const CommandResult merge =
      RunCommand({ProfBinary(), "merge", "-o", merged, first.report, second.report});
  INFO("merge stderr:\n" << merge.err);
  REQUIRE(merge.exit_code == 0);
  // Each call's stack, innermost first, with its thread and times: as each input had it.
  const std::string calls =
      "SELECT o.start, s.value, o.callchainId != 0, (SELECT group_concat(f, '<') FROM (SELECT "
      "n.value AS f FROM OSRT_CALLCHAINS c JOIN StringIds n ON n.id = c.symbol WHERE c.id = "
      "o.callchainId ORDER BY c.stackDepth)) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId";
  const auto offset_of = [&](const std::string& report) {
    return QueryRows(report, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").at(0).at(0);
  };
  const int64_t zero =
      std::min(std::stoll(offset_of(first.report)), std::stoll(offset_of(second.report)));
  Rows expected;
  for (const std::string& report : {first.report, second.report}) {
    const int64_t shift = std::stoll(offset_of(report)) - zero;
    for (Rows::value_type row : QueryRows(report, calls)) {
      row[0] = std::to_string(std::stoll(row[0]) + shift);
      expected.push_back(row);
    }
  }
  Rows merged_calls = QueryRows(merged, calls);
  std::sort(expected.begin(), expected.end());
  std::sort(merged_calls.begin(), merged_calls.end());
  CHECK(merged_calls == expected);
  CHECK(Count(merged, "SELECT count(*) FROM OSRT_API WHERE callchainId != 0") ==
        Count(first.report, "SELECT count(*) FROM OSRT_API WHERE callchainId != 0") +
            Count(second.report, "SELECT count(*) FROM OSRT_API WHERE callchainId != 0"));
  CHECK(merge.err.find("OSRT_CALLCHAINS") == std::string::npos);
}

}  // namespace prof::test
