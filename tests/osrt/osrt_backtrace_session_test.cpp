// The backtraces of OS-runtime calls named from what prof-reader read while the processes ran
// (collector/cpu_samples/drain_time_reads.h): a Python program and its multiprocessing worker run
// under the launcher's SessionServer with libprof_core and libprof_osrt preloaded, and their
// records are decoded into a report only once both have exited, as by a collector thread that
// fell behind the program by its whole run.
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/stream_importer.h"
#include "injection/protocol/launch_settings.h"
#include "storage/global_id.h"
#include "storage/report_writer.h"
#include "tests/osrt/osrt_report.h"
#include "tests/support/test_support.h"
#include "tests/support/traced_launch.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

struct DecodedLate {
  std::string report;
  int64_t main_pid = 0;
  int64_t worker_pid = 0;
};

// Runs osrt_blocked.py (the main process waits in wait_for_batch for a worker that sleeps 30 ms
// before each of its 4 puts) with backtraces of calls of 3 ms or more, decoding its records into
// a report after it exited; `reads`: what prof-reader reads as it drains them, or none.
DecodedLate RunDecodedAfterExit(const std::string& name, collector::DrainTimeReads* reads) {
  const std::string dir = MakeTempDir(name);
  DecodedLate run;
  run.report = dir + "/r.sqlite";
  auto created = storage::ReportWriter::Create(run.report);
  REQUIRE(created.ok());
  std::unique_ptr<storage::ReportWriter> writer = std::move(created).value();
  collector::StreamImporter importer(writer.get(), nullptr, reads);
  TracedLaunch launch;
  launch.argv = {kDebianPython, PROF_OSRT_BLOCKED_PY};
  launch.settings.trace_flags = protocol::kTraceOsrt;
  launch.settings.osrt_threshold_ns = 0;
  launch.settings.osrt_backtrace_threshold_ns = 3'000'000;
  launch.observer = reads;
  launch.decode_after_exit = true;
  launch.spill_dir = dir;
  launch.stdout_path = dir + "/stdout.txt";
  REQUIRE(RunTraced(launch, &importer) == 0);
  REQUIRE(writer->Finish(storage::SessionInfo{}).ok());
  std::ifstream printed(launch.stdout_path);
  const std::string out((std::istreambuf_iterator<char>(printed)),
                        std::istreambuf_iterator<char>());
  run.main_pid = ValueAfter(out, "pid=");
  const Rows others = QueryRows(run.report,
                                "SELECT DISTINCT (globalTid >> 24) & 16777215 FROM OSRT_API WHERE "
                                "(globalTid >> 24) & 16777215 != " +
                                    std::to_string(run.main_pid));
  REQUIRE(others.size() == 1);
  run.worker_pid = std::stoll(others[0][0]);
  return run;
}

// The callchain ids of thread `tid` of process `pid`'s calls named `function` of 20 ms or more.
Rows LongCalls(const DecodedLate& run, int64_t pid, const std::string& function) {
  return QueryRows(run.report,
                   "SELECT o.callchainId FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                   "WHERE s.value = '" +
                       function + "' AND o.end - o.start >= 20000000 AND o.globalTid = " +
                       std::to_string(storage::GlobalTid(pid, pid)) + " ORDER BY o.start");
}

TEST_CASE("a worker's blocked calls decoded after it exited name the Python functions it ran",
          "[osrt][backtrace]") {
  collector::DrainTimeReads reads;
  const DecodedLate run = RunDecodedAfterExit("osrt-backtrace-late", &reads);
  const std::string program = PROF_OSRT_BLOCKED_PY;
  // The worker's 4 sleeps of 30 ms, each with the stack of produce, Python frames throughout
  // (unwindMethod 1001), from the worker's function to the module that forked it.
  const Rows sleeps = LongCalls(run, run.worker_pid, "clock_nanosleep");
  REQUIRE(sleeps.size() == 4);
  for (const auto& sleep : sleeps) {
    INFO("callchain " << sleep[0]);
    const std::vector<std::string> frames = CallchainFrames(run.report, sleep[0]);
    REQUIRE(frames.size() >= 3);
    CHECK(frames.front() == "produce|" + program + "|0|1001");
    CHECK(frames.at(1).rfind("BaseProcess.run|", 0) == 0);
    CHECK(frames.back() == "<module>|" + program + "|0|1001");
  }
  // The main process's waits for the worker's items, in wait_for_batch.
  const Rows waits = LongCalls(run, run.main_pid, "read");
  REQUIRE(!waits.empty());
  for (const auto& wait : waits) {
    INFO("callchain " << wait[0]);
    const std::vector<std::string> frames = CallchainFrames(run.report, wait[0]);
    size_t at = frames.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      if (frames[i] == "wait_for_batch|" + program + "|0|1001") at = i;
    }
    REQUIRE(at < frames.size());
    CHECK(frames.at(at - 1).rfind("Queue.get|", 0) == 0);
  }
}

TEST_CASE("without the reads taken while it ran a worker decoded after it exited has no names",
          "[osrt][backtrace]") {
  // What the collector thread alone could name once the processes are gone: every call and its
  // stack are kept, but no frame is resolved, and the Python frames stay code objects' addresses.
  const DecodedLate run = RunDecodedAfterExit("osrt-backtrace-late-unread", nullptr);
  const Rows sleeps = LongCalls(run, run.worker_pid, "clock_nanosleep");
  REQUIRE(sleeps.size() == 4);
  for (const auto& sleep : sleeps) {
    INFO("callchain " << sleep[0]);
    const std::vector<std::string> frames = CallchainFrames(run.report, sleep[0]);
    REQUIRE(frames.size() >= 2);
    for (const std::string& frame : frames) {
      INFO(frame);
      // "symbol|module|unresolved|unwindMethod": unresolved, Python ones in [python].
      CHECK(frame.find("|1|") != std::string::npos);
      if (frame.size() > 5 && frame.compare(frame.size() - 5, 5, "|1001") == 0)
        CHECK(frame.find("|[python]|1|1001") != std::string::npos);
    }
  }
}

}  // namespace
}  // namespace prof::test
