// gpu_gaps and gpu_time_util on hand-made kernel timelines, with gap=, threshold=, chunks=,
// rows= and start=, and nsys's profiler-overhead rule (answers worked out by hand below).
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;
constexpr int64_t kMs = 1000000;

// pid 100. Device 0: [1,2] [1.5,3] [703,704] [904,905] ms -> gaps of 700 ms (from 3 ms) and
// 200 ms (from 704 ms). Device 1: [0.5,1] [601,602] ms -> a gap of 600 ms (from 1 ms).
// (Operations starting at 0 would not count: nsys's rules drop GPU rows without a start.)
std::string GapKernels() {
  return KernelRows({{1 * kMs, 2 * kMs, 0},
                     {kMs + kMs / 2, 3 * kMs, 0},
                     {703 * kMs, 704 * kMs, 0},
                     {904 * kMs, 905 * kMs, 0},
                     {kMs / 2, 1 * kMs, 1},
                     {601 * kMs, 602 * kMs, 1}});
}

std::string GapReport(const std::string& name, const std::string& extra_sql = "") {
  return stats::test::MakeReport(name, {"CUPTI_ACTIVITY_KIND_KERNEL"}, GapKernels() + extra_sql);
}

const Row kGap700 = {"1", "700000000", "3000000", "100", "0", "1"};
const Row kGap600 = {"2", "600000000", "1000000", "100", "1", "1"};

TEST_CASE("gpu_gaps lists idle stretches over gap= ms longest first", "[analyze][rules]") {
  const std::string report = GapReport("gpu_gaps");
  const RuleOutput output = RunRuleOn(report, "gpu_gaps");
  CHECK(output.columns ==
        Row{"Row#", "Duration (ns)", "Start (ns)", "PID", "Device ID", "Context ID"});
  CHECK(output.rows == TextRows{kGap700, kGap600});
  CHECK(RunRuleOn(report, "gpu_gaps:gap=100").rows ==
        TextRows{kGap700, kGap600, {"3", "200000000", "704000000", "100", "0", "1"}});
  CHECK(RunRuleOn(report, "gpu_gaps:gap=650").rows == TextRows{kGap700});
  CHECK(RunRuleOn(report, "gpu_gaps:gap=100:rows=1").rows == TextRows{kGap700});
  CHECK(RunRuleOn(report, "gpu_gaps:gap=700").rows.empty());  // longer than, not as long as
}

TEST_CASE("gpu_gaps with start= sees only the operations in the window", "[analyze][rules]") {
  const std::string report = GapReport("gpu_gaps_window");
  // From 650 ms: device 0 keeps [703,704] and [904,905]; device 1 has nothing left.
  CHECK(RunRuleOn(report, "gpu_gaps:gap=100:start=650000000").rows ==
        TextRows{{"1", "200000000", "704000000", "100", "0", "1"}});
}

TEST_CASE("gpu_gaps counts the profiler's CUDA overhead as busy", "[analyze][rules]") {
  // A CUDA profiling overhead of T1 at [300,400] ms lies inside both devices' gaps and splits
  // them; the TLS allocation overhead is not a CUDA one and changes nothing.
  const std::string report = GapReport(
      "gpu_gaps_overhead",
      WithIds("CREATE TABLE PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER NOT NULL,"
              " globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
              "INSERT INTO StringIds VALUES (50, 'CUDA profiling overhead'),"
              " (51, 'TLS allocation');"
              "INSERT INTO PROFILER_OVERHEAD VALUES (300000000, 400000000, $T1, 50, 0),"
              " (500000000, 550000000, $T1, 51, 0);"));
  CHECK(RunRuleOn(report, "gpu_gaps").rows.empty());
  CHECK(RunRuleOn(report, "gpu_gaps:gap=250").rows ==
        TextRows{{"1", "303000000", "400000000", "100", "0", "1"},
                 {"2", "299000000", "1000000", "100", "1", "1"},
                 {"3", "297000000", "3000000", "100", "0", "1"}});
}

// Device 0 over [1000,2000] ns: busy [1000,1100] [1100,1300] [1500,1530] [1600,2000]. Device 1 is
// busy all of [1000,2000], so it never shows.
std::string UtilReport(const std::string& name) {
  return stats::test::MakeReport(
      name, {"CUPTI_ACTIVITY_KIND_KERNEL"},
      KernelRows(
          {{1000, 1100, 0}, {1100, 1300, 0}, {1500, 1530, 0}, {1600, 2000, 0}, {1000, 2000, 1}}));
}

TEST_CASE("gpu_time_util merges consecutive low chunks into one region", "[analyze][rules]") {
  const std::string report = UtilReport("gpu_time_util");
  // 10 chunks of 100 ns: chunks 3 and 4 are idle, chunk 5 is 30% busy -> [1300,1600] at 10.0%.
  const RuleOutput output = RunRuleOn(report, "gpu_time_util:chunks=10");
  CHECK(output.columns ==
        Row{"Row#", "In-Use (%)", "Duration (ns)", "Start (ns)", "PID", "Device ID", "Context ID"});
  CHECK(output.rows == TextRows{{"1", "10.0", "300", "1300", "100", "0", "1"}});
  // Under 20%: only the idle chunks.
  CHECK(RunRuleOn(report, "gpu_time_util:chunks=10:threshold=20").rows ==
        TextRows{{"1", "0.0", "200", "1300", "100", "0", "1"}});
}

TEST_CASE("gpu_time_util rounds the chunk length up to whole ns", "[analyze][rules]") {
  const std::string report = UtilReport("gpu_time_util_rounding");
  // 3 chunks of 334 ns: [1000,1334] 89.8%, [1334,1668] 98/334 = 29.3%, [1668,2000] 100%.
  CHECK(RunRuleOn(report, "gpu_time_util:chunks=3").rows ==
        TextRows{{"1", "29.3", "334", "1334", "100", "0", "1"}});
  CHECK(RunRuleOn(report, "gpu_time_util:chunks=1").rows.empty());  // 73% busy overall
}

TEST_CASE("the GPU rules are skipped without any GPU operation table", "[analyze][rules]") {
  const std::string report =
      stats::test::MakeReport("no_gpu_ops", {"CUPTI_ACTIVITY_KIND_RUNTIME"}, "");
  for (const std::string rule : {"gpu_gaps", "gpu_time_util"}) {
    CHECK(RunRuleOn(report, rule).skip_note ==
          report +
              " could not be analyzed because it does not contain GPU operations. Does the"
              " application launch kernels, copies or sets?");
  }
}

}  // namespace
}  // namespace prof::analyze::test
