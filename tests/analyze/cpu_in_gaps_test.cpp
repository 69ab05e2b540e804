// cpu_in_gaps: what the CPU threads did in the GPU gaps, or in a CPU-only report's steady state,
// and the sentence summary adds from it, on the hand-made reports of cpu_in_gaps_fixture.h.
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"
#include "tests/analyze/cpu_in_gaps_fixture.h"
#include "tests/analyze/gap_cause_fixture.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

TEST_CASE("cpu_in_gaps lists each thread of each GPU gap", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(CpuInGapsReport("cpu_in_gaps"), "cpu_in_gaps:gap=1");
  CHECK(output.columns == Row{"Gap", "Gap Start (ns)", "Gap Duration (ns)", "PID", "TID", "Thread",
                              "Samples", "Running (ns)", "Blocked (ns)", "Preempted (ns)",
                              "Top Functions", "Blocked In"});
  // Gap 1 [2000,12000]: MainThread's 10 samples, preempted [8000,8500]; worker runs [2000,4000]
  // and is blocked after. Gap 2 [13000,21000]: MainThread, which launched the next kernel, is
  // blocked throughout; worker, blocked throughout and unsampled, is not listed. The samples at
  // 1500 and 12500 lie outside the gaps. Blocked In: the backtraced OS runtime call each thread
  // spent the most of the gap in (the worker's read [4000,29990], MainThread's sem_wait
  // [12900,20950]); the worker's write has no backtrace.
  CHECK(output.rows == TextRows{{"1", "2000", "10000", "100", "100", "MainThread", "10", "9500",
                                 "0", "500", "7 collate (/w/train.py:42); 3 memcpy", ""},
                                {"1", "2000", "10000", "100", "101", "worker", "0", "2000", "8000",
                                 "0", "", "8000 read ← _worker_loop ← <module>"},
                                {"2", "13000", "8000", "100", "100", "MainThread", "0", "0", "8000",
                                 "0", "", "7950 sem_wait ← Queue.get ← train ← <module>"}});
  CHECK(output.window_note ==
        "Whole report analyzed: no NVTX range repeats 3 or more times, so no warm-up step was "
        "skipped.");
}

TEST_CASE("cpu_in_gaps takes functions= and the gap threshold", "[analyze][rules]") {
  const std::string report = CpuInGapsReport("cpu_in_gaps_options");
  const RuleOutput one = RunRuleOn(report, "cpu_in_gaps:gap=1:functions=1:rows=1");
  CHECK(one.rows == TextRows{{"1", "2000", "10000", "100", "100", "MainThread", "10", "9500", "0",
                              "500", "7 collate (/w/train.py:42)", ""}});
  // gap=9 (us): only the 10000 ns gap is longer.
  const RuleOutput longer = RunRuleOn(report, "cpu_in_gaps:gap=9");
  REQUIRE(longer.rows.size() == 2);
  CHECK(longer.rows[1][0] == "1");
  // Over the default 100 us threshold there is no gap.
  CHECK(RunRuleOn(report, "cpu_in_gaps").rows.empty());
}

TEST_CASE("summary names the busiest thread's function or the blocked feeding thread",
          "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(CpuInGapsReport("cpu_in_gaps_summary"), "summary:gap=1");
  REQUIRE(output.rows.size() == 2);
  CHECK(output.rows[0][4] ==
        "The GPU was idle 0.010 ms in 1 gap while the host was launching work; 3 of 3 kernels ran"
        " under 10 us: the step is launch-bound. In the gap the busiest thread (TID 100) was most"
        " often in collate (/w/train.py:42): 7 of its 10 CPU samples.");
  CHECK(output.rows[1][4] ==
        "The GPU was idle 0.008 ms in 1 gap while the thread that feeds it was blocked in"
        " sem_wait: it was waiting for input data (DataLoader workers or file reads). In the gap"
        " the thread that feeds the GPU was blocked for 0.008 ms of the 0.008 ms, longest in"
        " sem_wait ← Queue.get ← train ← <module>.");
}

TEST_CASE("cpu_in_gaps on a CPU-only report describes the steady state per thread",
          "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(CpuOnlyReport("cpu_only"), "cpu_in_gaps");
  CHECK(output.columns == Row{"PID", "TID", "Thread", "Samples", "Samples (%)", "Running (ns)",
                              "Blocked (ns)", "Preempted (ns)", "Top Functions", "Blocked In"});
  // Steady state [1000,4000]: MainThread's sample at 500 is warm-up; 6 + 3 samples remain.
  CHECK(output.rows == TextRows{{"100", "100", "MainThread", "6", "66.7", "3000", "0", "0",
                                 "4 collate (/w/train.py:42); 2 memcpy", ""},
                                {"100", "101", "worker", "3", "33.3", "2000", "1000", "0",
                                 "3 decode_jpeg", "1000 read ← _worker_loop ← <module>"}});
  CHECK(output.window_note ==
        "Steady state: NVTX ranges :step 2 to 4 of 4 (1000 ns to 4000 ns); the first 1 skipped as"
        " warm-up (warmup=0 keeps them, step= picks the range).");
  // warmup=0: the whole report, from the first thread switch to the last; start= and end= too.
  const RuleOutput whole = RunRuleOn(CpuOnlyReport("cpu_only_whole"), "cpu_in_gaps:warmup=0");
  REQUIRE(whole.rows.size() == 2);
  CHECK(whole.rows[0] == Row{"100", "100", "MainThread", "7", "70.0", "5000", "0", "100",
                             "5 collate (/w/train.py:42); 2 memcpy", ""});
  const RuleOutput window =
      RunRuleOn(CpuOnlyReport("cpu_only_window"), "cpu_in_gaps:start=1000:end=1700");
  CHECK(window.rows ==
        TextRows{{"100", "100", "MainThread", "2", "50.0", "700", "0", "0",
                  "2 collate (/w/train.py:42)", ""},
                 {"100", "101", "worker", "2", "50.0", "700", "0", "0", "2 decode_jpeg", ""}});
}

TEST_CASE("cpu_in_gaps is SKIPPED without CPU samples", "[analyze][rules]") {
  const std::string report = GapCauseReport("cpu_in_gaps_skip");
  const RuleOutput output = RunRuleOn(report, "cpu_in_gaps:gap=1");
  REQUIRE(output.skip_note.has_value());
  CHECK(*output.skip_note == report +
                                 " could not be analyzed because it does not contain CPU sample"
                                 " data. Was it profiled with --sample=process-tree?");
}

}  // namespace
}  // namespace prof::analyze::test
