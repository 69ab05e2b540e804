#include "tests/stats/nvtx_fixture.h"

#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {

std::string MakeNvtxReport(const std::string& name) {
  // $T1, $T2, $T5 stand for the threads' GlobalIds.
  const std::string rows =
      "INSERT INTO StringIds (id, value) VALUES (1, 'load');"
      // Domain creation (eventType 75) and a mark (34).
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, NULL, 75, 'Lib', $T1, 7), (0, NULL, 75, 'Other', $T5, 7),"
      " (50, NULL, 34, 'mark', $T1, 0);"
      // Push/pop ranges (59), one never popped; Lib:load names itself by textId.
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId, globalTid, domainId) VALUES"
      " (0, 1000, 59, 'outer', NULL, $T1, 0), (100, 300, 59, 'inner', NULL, $T1, 0),"
      " (300, 700, 59, 'inner', NULL, $T1, 0), (400, 450, 59, 'leaf', NULL, $T1, 0),"
      " (2000, 2600, 59, 'outer', NULL, $T1, 0), (2000, 2100, 59, 'inner', NULL, $T1, 0),"
      " (500, 1300, 59, 'outer', NULL, $T2, 0), (600, 1150, 59, 'inner', NULL, $T2, 0),"
      " (150, 250, 59, NULL, 1, $T1, 7), (0, 30, 59, 'load', NULL, $T5, 7),"
      " (3000, NULL, 59, 'open', NULL, $T1, 0);"
      // Start/end ranges (60), some ended on another thread.
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid, domainId)"
      " VALUES (10, 60, 60, 'transfer', $T1, $T2, 0), (20, 120, 60, 'transfer', $T2, $T2, 0),"
      " (30, 330, 60, 'transfer', $T1, $T1, 0), (5, 15, 60, 'outer', $T1, $T1, 0);";
  return MakeReport(
      name, {"NVTX_EVENTS"},
      ReplaceAll(rows, {{"$T1", Tid(100, 1)}, {"$T2", Tid(100, 2)}, {"$T5", Tid(200, 5)}}));
}

}  // namespace prof::stats::test
