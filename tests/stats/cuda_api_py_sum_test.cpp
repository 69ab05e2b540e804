// cuda_api_py_sum on a hand-made report with Python stacks (--python-backtrace=cuda): calls grouped
// by function and by the program's line, frames of installed packages and the standard library
// skipped, calls without a stack left out.
#include <catch2/catch.hpp>

#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

TEST_CASE("cuda_api_py_sum sums calls per function and Python line", "[stats][python]") {
  const std::string t1 = Tid(77, 77);
  const std::string report = MakeReport(
      "cuda_api_py_sum", {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA_CALLCHAINS"},
      ReplaceAll(
          "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'),"
          " (2, 'cudaStreamSynchronize_v3020'), (3, 'Tensor.item'),"
          " (4, '/venv/lib/python3.12/site-packages/torch/_tensor.py'), (5, 'step'),"
          " (6, '/w/train.py'), (7, 'Module._call_impl'), (8, '/usr/lib/python3.12/threading.py'),"
          " (9, 'run'), (10, '<frozen runpy>'), (11, '_run_code');"
          // 1: train.py:42 via Tensor.item; 2: train.py:30 via torch's module wrapper and the
          // standard library; 3: only library frames, so the innermost one is named.
          "INSERT INTO CUDA_CALLCHAINS (id, symbol, module, unresolved, originalIP, stackDepth)"
          " VALUES (1, 3, 4, 0, 500, 0), (1, 5, 6, 0, 42, 1),"
          " (2, 7, 4, 0, 1700, 0), (2, 9, 8, 0, 90, 1), (2, 5, 6, 0, 30, 2),"
          " (3, 11, 10, 0, 88, 0), (3, 9, 8, 0, 91, 1);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
          " correlationId, nameId, returnValue, callchainId) VALUES"
          " (0, 100, 0, $T1, 1, 2, 0, 1), (200, 500, 0, $T1, 2, 2, 0, 1),"
          " (600, 610, 0, $T1, 3, 1, 0, 2), (700, 730, 0, $T1, 4, 1, 0, 2),"
          " (800, 805, 0, $T1, 5, 1, 0, 3), (900, 990, 0, $T1, 6, 1, 0, NULL);",
          {{"$T1", t1}}));
  const ResultTable table = RunReport(report, "cuda_api_py_sum");
  CHECK(table.columns == std::vector<std::string>{"Time (%)", "Total Time (ns)", "Num Calls",
                                                  "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
                                                  "StdDev (ns)", "Name", "Python Line",
                                                  "Python File"});
  CHECK(Texts(table) ==
        TextRows{{"89.9", "400", "2", "200.0", "200.0", "100", "300", "141.4",
                  "cudaStreamSynchronize", "train.py:42 step", "/w/train.py"},
                 {"9.0", "40", "2", "20.0", "20.0", "10", "30", "14.1", "cudaLaunchKernel",
                  "train.py:30 step", "/w/train.py"},
                 {"1.1", "5", "1", "5.0", "5.0", "5", "5", "0.0", "cudaLaunchKernel",
                  "<frozen runpy>:88 _run_code", "<frozen runpy>"}});
}

}  // namespace
}  // namespace prof::stats::test
