// nvtx_sum, nvtx_pushpop_sum, nvtx_startend_sum and nvtx_pushpop_trace on the hand-made report of
// nvtx_fixture.h; every expected value is worked out by hand from the ranges listed there.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/stats/nvtx_fixture.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

const std::vector<std::string> kSummaryColumns = {"Time (%)", "Total Time (ns)", "Instances",
                                                  "Avg (ns)", "Med (ns)",        "Min (ns)",
                                                  "Max (ns)", "StdDev (ns)"};

std::vector<std::string> With(std::vector<std::string> columns,
                              const std::vector<std::string>& more) {
  columns.insert(columns.end(), more.begin(), more.end());
  return columns;
}

double TimePercentSum(const TextRows& rows) {
  double sum = 0;
  for (const auto& row : rows) sum += std::stod(row[0]);
  return sum;
}

TEST_CASE("nvtx_sum summarizes ranges by name and style", "[stats][nvtx]") {
  const ResultTable table = RunReport(MakeNvtxReport("nvtx_sum"), "nvtx_sum");
  CHECK(table.columns == With(kSummaryColumns, {"Style", "Range"}));
  // Total of all rows: 2400 + 1250 + 450 + 100 + 50 + 30 + 10 = 4290 ns.
  const TextRows expected = {
      // 1000, 600, 800: mean 800, deviations +-200 and 0 -> sqrt(80000 / 2) = 200.
      {"55.9", "2400", "3", "800.0", "800.0", "600", "1000", "200.0", "PushPop", ":outer"},
      // Sorted 100 200 400 550: even count, median (200 + 400) / 2 = 300; mean 312.5,
      // deviations -212.5 -112.5 87.5 237.5 -> sqrt(121875 / 3) = 201.56.
      {"29.1", "1250", "4", "312.5", "300.0", "100", "550", "201.6", "PushPop", ":inner"},
      // 50, 100, 300: sqrt(35000 / 2) = 132.29.
      {"10.5", "450", "3", "150.0", "100.0", "50", "300", "132.3", "StartEnd", ":transfer"},
      {"2.3", "100", "1", "100.0", "100.0", "100", "100", "0.0", "PushPop", "Lib:load"},
      {"1.2", "50", "1", "50.0", "50.0", "50", "50", "0.0", "PushPop", ":leaf"},
      {"0.7", "30", "1", "30.0", "30.0", "30", "30", "0.0", "PushPop", "Other:load"},
      {"0.2", "10", "1", "10.0", "10.0", "10", "10", "0.0", "StartEnd", ":outer"},
  };
  CHECK(Texts(table) == expected);
  CHECK(TimePercentSum(expected) == Approx(99.9));
}

TEST_CASE("nvtx_sum merges a domain's ranges across processes and names it by its first creation",
          "[stats][nvtx]") {
  // Domain "Lib" is id 7 in pid 100 and id 9 in pid 200. Pid 100 creates id 7 again later as
  // "Late" (listed first): the earliest creation names it. Id 9 in pid 100 is never created.
  const std::string rows =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (50, NULL, 75, 'Late', $T1, 7), (10, NULL, 75, 'Lib', $T1, 7),"
      " (10, NULL, 75, 'Lib', $T5, 9),"
      " (100, 110, 59, 'step', $T1, 7), (200, 230, 59, 'step', $T5, 9),"
      " (300, 350, 70, 'step', $T1, 7), (400, 401, 59, 'step', $T1, 9),"
      " (500, 520, 59, 'step', $T1, 0), (600, 700, 71, 'step', $T5, 9);";
  const ResultTable table =
      RunReport(MakeReport("nvtx_sum_domains", {"NVTX_EVENTS"},
                           ReplaceAll(rows, {{"$T1", Tid(100, 1)}, {"$T5", Tid(200, 5)}})),
                "nvtx_sum");
  const TextRows expected = {
      {"47.4", "100", "1", "100.0", "100.0", "100", "100", "0.0", "StartEnd", "Lib:step"},
      // 10, 30 and 50 (NVTXt push/pop, eventType 70, counts as PushPop).
      {"42.7", "90", "3", "30.0", "30.0", "10", "50", "20.0", "PushPop", "Lib:step"},
      // The default domain's 20 and the 1 of id 9 in pid 100, which no creation names.
      {"10.0", "21", "2", "10.5", "10.5", "1", "20", "13.4", "PushPop", ":step"},
  };
  CHECK(Texts(table) == expected);
}

TEST_CASE("nvtx_sum of 600,000 ranges equals the statistics worked out here", "[stats][nvtx]") {
  // Large enough that duration_groups_parallel() scans it in slices on a machine of 2 or more
  // CPUs. Range i lasts (i * 7919) % 1000 ns; every third is in the default domain, the others
  // in domain "D" of two processes.
  constexpr int kRanges = 600000;
  const std::string rows =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, NULL, 75, 'D', $T1, 7), (0, NULL, 75, 'D', $T5, 9);"
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 599999)"
      " INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
      " SELECT i * 1000, i * 1000 + (i * 7919) % 1000, 59, 'step',"
      "   CASE WHEN i % 2 = 0 THEN $T1 ELSE $T5 END,"
      "   CASE WHEN i % 3 = 0 THEN 0 WHEN i % 2 = 0 THEN 7 ELSE 9 END FROM n;";
  const ResultTable table =
      RunReport(MakeReport("nvtx_sum_large", {"NVTX_EVENTS"},
                           ReplaceAll(rows, {{"$T1", Tid(100, 1)}, {"$T5", Tid(200, 5)}})),
                "nvtx_sum");
  std::vector<double> in_domain, in_default;
  for (int64_t i = 0; i < kRanges; ++i) {
    (i % 3 == 0 ? in_default : in_domain).push_back(static_cast<double>((i * 7919) % 1000));
  }
  const TextRows texts = Texts(table);
  REQUIRE(texts.size() == 2);
  for (const auto& row : texts) {
    std::vector<double>& values = row[9] == "D:step" ? in_domain : in_default;
    INFO(row[9]);
    double sum = 0;
    for (double value : values) sum += value;
    const double mean = sum / static_cast<double>(values.size());
    double squares = 0;
    for (double value : values) squares += (value - mean) * (value - mean);
    std::sort(values.begin(), values.end());
    const size_t half = values.size() / 2;
    const double median =
        values.size() % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2;
    CHECK(row[1] == std::to_string(static_cast<int64_t>(sum)));
    CHECK(row[2] == std::to_string(static_cast<int64_t>(values.size())));
    CHECK(std::stod(row[3]) == Approx(mean).margin(0.05));
    CHECK(std::stod(row[4]) == Approx(median).margin(0.05));
    CHECK(row[5] == std::to_string(static_cast<int64_t>(values.front())));
    CHECK(row[6] == std::to_string(static_cast<int64_t>(values.back())));
    CHECK(std::stod(row[7]) ==
          Approx(std::sqrt(squares / static_cast<double>(values.size() - 1))).margin(0.05));
  }
  CHECK(texts[0][9] == "D:step");
}

TEST_CASE("nvtx_pushpop_sum keeps push/pop ranges only", "[stats][nvtx]") {
  const ResultTable table = RunReport(MakeNvtxReport("nvtx_pushpop_sum"), "nvtx_pushpop_sum");
  CHECK(table.columns == With(kSummaryColumns, {"Range"}));
  // Shares of 2400 + 1250 + 100 + 50 + 30 = 3830 ns.
  const TextRows expected = {
      {"62.7", "2400", "3", "800.0", "800.0", "600", "1000", "200.0", ":outer"},
      {"32.6", "1250", "4", "312.5", "300.0", "100", "550", "201.6", ":inner"},
      {"2.6", "100", "1", "100.0", "100.0", "100", "100", "0.0", "Lib:load"},
      {"1.3", "50", "1", "50.0", "50.0", "50", "50", "0.0", ":leaf"},
      {"0.8", "30", "1", "30.0", "30.0", "30", "30", "0.0", "Other:load"},
  };
  CHECK(Texts(table) == expected);
  CHECK(TimePercentSum(expected) == Approx(100.0));
}

TEST_CASE("nvtx_startend_sum keeps start/end ranges only", "[stats][nvtx]") {
  const ResultTable table = RunReport(MakeNvtxReport("nvtx_startend_sum"), "nvtx_startend_sum");
  CHECK(table.columns == With(kSummaryColumns, {"Range"}));
  const TextRows expected = {
      {"97.8", "450", "3", "150.0", "100.0", "50", "300", "132.3", ":transfer"},
      {"2.2", "10", "1", "10.0", "10.0", "10", "10", "0.0", ":outer"},
  };
  CHECK(Texts(table) == expected);
}

TEST_CASE("nvtx_pushpop_trace lists each range with its nesting", "[stats][nvtx]") {
  const ResultTable table = RunReport(MakeNvtxReport("nvtx_pushpop_trace"), "nvtx_pushpop_trace");
  CHECK(table.columns == std::vector<std::string>{"Start (ns)", "End (ns)", "Duration (ns)",
                                                  "DurChild (ns)", "DurNonChild (ns)", "Name",
                                                  "PID", "TID", "Lvl", "NumChild", "RangeId",
                                                  "ParentId", "RangeStack", "NameTree"});
  const TextRows expected = {
      {"0", "1000", "1000", "600", "400", ":outer", "100", "1", "0", "2", "1", "", ":1", ":outer"},
      {"0", "30", "30", "0", "30", "Other:load", "200", "5", "0", "0", "2", "", ":2", "Other:load"},
      {"100", "300", "200", "0", "200", ":inner", "100", "1", "1", "0", "3", "1", ":1:3",
       "--:inner"},
      // Domain 7 has its own stack: level 0 although T1's :outer and :inner are open.
      {"150", "250", "100", "0", "100", "Lib:load", "100", "1", "0", "0", "4", "", ":4",
       "Lib:load"},
      // Starts where the previous :inner ends: a sibling, not a child.
      {"300", "700", "400", "50", "350", ":inner", "100", "1", "1", "1", "5", "1", ":1:5",
       "--:inner"},
      {"400", "450", "50", "0", "50", ":leaf", "100", "1", "2", "0", "6", "5", ":1:5:6",
       "----:leaf"},
      {"500", "1300", "800", "550", "250", ":outer", "100", "2", "0", "1", "7", "", ":7", ":outer"},
      {"600", "1150", "550", "0", "550", ":inner", "100", "2", "1", "0", "8", "7", ":7:8",
       "--:inner"},
      // Same start as its parent: the longer range encloses.
      {"2000", "2600", "600", "100", "500", ":outer", "100", "1", "0", "1", "9", "", ":9",
       ":outer"},
      {"2000", "2100", "100", "0", "100", ":inner", "100", "1", "1", "0", "10", "9", ":9:10",
       "--:inner"},
  };
  CHECK(Texts(table) == expected);
}

TEST_CASE("nvtx_pushpop_trace orders ranges of one timestamp consistently", "[stats][nvtx]") {
  // P ends at 100 where Q starts; Z1 and Z2 are zero-length at 100.
  const std::string path = MakeReport(
      "nvtx_trace_ties", {"NVTX_EVENTS"},
      ReplaceAll("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
                 " (0, 100, 59, 'P', $T, 0), (100, 200, 59, 'Q', $T, 0),"
                 " (100, 100, 59, 'Z1', $T, 0), (100, 100, 59, 'Z2', $T, 0);",
                 {{"$T", Tid(1, 1)}}));
  TextRows nesting;  // Name, Lvl, NumChild, RangeId, ParentId
  for (const auto& row : Texts(RunReport(path, "nvtx_pushpop_trace"))) {
    nesting.push_back({row[5], row[8], row[9], row[10], row[11]});
  }
  CHECK(nesting == TextRows{{":P", "0", "0", "1", ""},
                            {":Q", "0", "2", "2", ""},
                            {":Z1", "1", "0", "3", "2"},
                            {":Z2", "1", "0", "4", "2"}});
}

TEST_CASE("NVTX reports are empty without ranges", "[stats][nvtx]") {
  const std::string path = MakeReport(
      "nvtx_marks_only", {"NVTX_EVENTS"},
      "INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid) VALUES (5, 34, 'm', 1);");
  for (const char* report :
       {"nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "nvtx_pushpop_trace"}) {
    INFO(report);
    CHECK(RunReport(path, report).rows.empty());
  }
}

}  // namespace
}  // namespace prof::stats::test
