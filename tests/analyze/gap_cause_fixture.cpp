#include "tests/analyze/gap_cause_fixture.h"

#include "tests/analyze/analyze_test_util.h"

namespace prof::analyze::test {

std::string GapCauseReport(const std::string& name, const std::string& more_rows) {
  return stats::test::MakeReport(
      name,
      {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API", "NVTX_EVENTS"},
      KernelRows({{1000, 2000, 0, 7, 1},
                  {10000, 11000, 0, 7, 2},
                  {20000, 21000, 0, 7, 3},
                  {30000, 31000, 0, 7, 4},
                  {40000, 40050, 0, 7, 5},
                  {40100, 40200, 0, 7, 6},
                  {45200, 46000, 0, 7, 7}}) +
          WithIds("INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000'),"
                  " (3, 'cudaStreamSynchronize_v3020'), (4, 'pthread_cond_wait'), (5, 'read');"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
                  " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
                  " (900, 905, 1, $T1, 1, 2, 0), (9950, 9955, 1, $T1, 2, 2, 0),"
                  " (19990, 19995, 1, $T1, 3, 2, 0), (29000, 29005, 1, $T1, 4, 2, 0),"
                  " (40090, 40095, 1, $T1, 6, 2, 0), (45100, 45105, 1, $T1, 7, 2, 0),"
                  " (11500, 19000, 1, $T1, 8, 3, 0);"
                  "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue,"
                  " callchainId) VALUES (2100, 9900, 27, $T1, 4, 0, 0),"
                  " (21500, 23000, 27, $T1, 5, 0, 0);"
                  "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                  " VALUES (0, 12000, 59, 'step', $T1, 0), (12000, 24000, 59, 'step', $T1, 0),"
                  " (2050, 9950, 59, 'data_wait', $T1, 0);" +
                  more_rows));
}

}  // namespace prof::analyze::test
