// osrt_sum on a hand-made report with known answers.
#include <catch2/catch.hpp>

#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

std::string MakeOsrtReport() {
  // $T1, $T2 stand for two threads' GlobalIds.
  const std::string rows =
      "INSERT INTO StringIds (id, value) VALUES"
      " (1, 'read'), (2, 'poll'), (3, 'write'), (4, 'ioctl'), (5, '[Unknown]');"
      "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue, nestingLevel,"
      " callchainId) VALUES"
      " (0, 1000, 27, $T1, 1, 0, 0, 0), (2000, 5000, 27, $T1, 1, 0, 0, 0),"
      " (6000, 8000, 27, $T2, 1, 0, 0, 0), (9000, 15000, 27, $T2, 1, 0, 0, 0),"
      " (100, 10100, 27, $T1, 2, 0, 0, 0), (20000, 34000, 27, $T2, 2, 0, 0, 0),"
      " (40000, 45000, 27, $T1, 3, 0, 0, 0), (50000, 55000, 27, $T1, 4, 0, 0, 0),"
      // nsys's process start/finish markers (classes 31, 32) are not calls.
      " (0, 0, 31, $T1, 5, 0, NULL, 0), (60000, 60000, 32, $T1, 5, 0, NULL, 0);";
  return MakeReport("osrt_sum", {"OSRT_API"},
                    ReplaceAll(rows, {{"$T1", Tid(10, 10)}, {"$T2", Tid(10, 11)}}));
}

TEST_CASE("osrt_sum summarizes calls by function", "[stats][osrt]") {
  const ResultTable table = RunReport(MakeOsrtReport(), "osrt_sum");
  CHECK(table.columns == std::vector<std::string>{"Time (%)", "Total Time (ns)", "Num Calls",
                                                  "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
                                                  "StdDev (ns)", "Name"});
  // Shares of 24000 + 12000 + 5000 + 5000 = 46000 ns; they add up to 100.1 after rounding.
  CHECK(Texts(table) ==
        TextRows{
            // 10000, 14000: sqrt(2 * 2000^2 / 1) = 2828.43.
            {"52.2", "24000", "2", "12000.0", "12000.0", "10000", "14000", "2828.4", "poll"},
            // Sorted 1000 2000 3000 6000: median 2500; sqrt((4 + 1 + 0 + 9) * 10^6 / 3) = 2160.25.
            {"26.1", "12000", "4", "3000.0", "2500.0", "1000", "6000", "2160.2", "read"},
            // Equal totals: by name.
            {"10.9", "5000", "1", "5000.0", "5000.0", "5000", "5000", "0.0", "ioctl"},
            {"10.9", "5000", "1", "5000.0", "5000.0", "5000", "5000", "0.0", "write"},
        });
}

}  // namespace
}  // namespace prof::stats::test
