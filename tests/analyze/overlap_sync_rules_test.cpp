// overlap, sync_hotspots and the steady-state window (step=, warmup=) on hand-made reports whose
// answers are worked out by hand below.
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

// pid 100, T1 launches everything. Device 0 kernels (correlation: [start,end], call start):
//   1: [100000,200000] 50000   2: [150000,300000] 60000   -> busy [100000,300000]
//   3: [500000,505000] 495000  4: [600000,608000] 597000  (5 and 8 us: short)
// Device 0 copies: 5: [250000,350000] (50000 under kernels), 6: [400000,450000] (none),
//   7: [503000,506000] (2000 under kernel 3). Device 1: copy 8: [100000,110000], no kernel.
std::string OverlapReport(const std::string& name) {
  const std::string rows =
      KernelRows({{100000, 200000, 0, 7, 1},
                  {150000, 300000, 0, 8, 2},
                  {500000, 505000, 0, 7, 3},
                  {600000, 608000, 0, 7, 4}}) +
      WithIds(
          "INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000'),"
          " (3, 'cudaMemcpyAsync_v3020');"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
          " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
          " (50000, 50010, 1, $T1, 1, 2, 0), (60000, 60010, 1, $T1, 2, 2, 0),"
          " (495000, 495010, 1, $T1, 3, 2, 0), (597000, 597010, 1, $T1, 4, 2, 0),"
          " (240000, 240010, 1, $T1, 5, 3, 0), (390000, 390010, 1, $T1, 6, 3, 0),"
          " (502000, 502010, 1, $T1, 7, 3, 0), (90000, 90010, 1, $T1, 8, 3, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId,"
          " correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES"
          " (250000, 350000, 0, 1, 9, 5, $G1, 100, 1, 1, 2),"
          " (400000, 450000, 0, 1, 9, 6, $G1, 100, 1, 1, 2),"
          " (503000, 506000, 0, 1, 9, 7, $G1, 100, 1, 1, 2),"
          " (100000, 110000, 1, 1, 9, 8, $G1, 100, 1, 1, 2);");
  return stats::test::MakeReport(
      name,
      {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME"},
      rows);
}

TEST_CASE("overlap measures copy time under kernels and short kernels per device",
          "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(OverlapReport("overlap"), "overlap");
  CHECK(output.columns == Row{"PID", "Device ID", "Kernels", "Kernel Time (ns)", "Short Kernels",
                              "Short Kernel Time (%)", "Med Launch Latency (ns)", "Copies",
                              "Copy Time (ns)", "Overlapped Copy Time (ns)", "Copy Overlap (%)"});
  // Kernel time 100000 + 150000 + 5000 + 8000; short 13000 of it (4.9%); latencies 50000,
  // 90000, 5000, 3000 (median 27500); copies 153000 ns, 52000 of them under kernels (34.0%).
  CHECK(output.rows ==
        TextRows{{"100", "0", "4", "263000", "2", "4.9", "27500.0", "3", "153000", "52000", "34.0"},
                 {"100", "1", "0", "0", "0", "", "", "1", "10000", "0", "0.0"}});
}

// T1: :step [0,1000] [1000,2000] [2000,3000], each with :sync [k800,k950] inside and one kernel
// [k100,k200]; :fwd [k100,k300] repeats too but takes less time; :setup happens once.
// Synchronizing calls (correlation: thread [start,end]):
//   11-13: T1 cudaStreamSynchronize [850,900] [1850,1920] [2850,2890], inside :sync
//   14: T1 cudaMemcpyAsync [810,840] -> copy to pageable memory (inside the first :sync)
//   15: T1 cudaMemcpyAsync [100,120] -> copy between pinned and device memory (not a sync)
//   16: T1 cudaDeviceSynchronize [3100,3600], outside every range
//   17: T2 cudaEventSynchronize [500,700], outside every range
// `extra_sql` runs after the rows above, with `extra_tables` (schema files) created too.
std::string LoopReport(const std::string& name, const std::string& extra_sql = "",
                       const std::vector<std::string>& extra_tables = {}) {
  const std::string rows =
      KernelRows({{100, 200, 0, 7, 1}, {1100, 1200, 0, 7, 2}, {2100, 2200, 0, 7, 3}}) +
      WithIds(
          "INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000'),"
          " (3, 'cudaMemcpyAsync_v3020'), (4, 'cudaStreamSynchronize_v3020'),"
          " (5, 'cudaDeviceSynchronize_v3020'), (6, 'cudaEventSynchronize_v3020');"
          "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
          " (0, 1000, 59, 'step', $T1, 0), (1000, 2000, 59, 'step', $T1, 0),"
          " (2000, 3000, 59, 'step', $T1, 0), (800, 950, 59, 'sync', $T1, 0),"
          " (1800, 1950, 59, 'sync', $T1, 0), (2800, 2950, 59, 'sync', $T1, 0),"
          " (100, 300, 59, 'fwd', $T1, 0), (1100, 1300, 59, 'fwd', $T1, 0),"
          " (2100, 2300, 59, 'fwd', $T1, 0), (-500, -10, 59, 'setup', $T1, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
          " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
          " (90, 95, 1, $T1, 1, 2, 0), (1090, 1095, 1, $T1, 2, 2, 0),"
          " (2090, 2095, 1, $T1, 3, 2, 0),"
          " (850, 900, 1, $T1, 11, 4, 0), (1850, 1920, 1, $T1, 12, 4, 0),"
          " (2850, 2890, 1, $T1, 13, 4, 0), (810, 840, 1, $T1, 14, 3, 0),"
          " (100, 120, 1, $T1, 15, 3, 0), (3100, 3600, 1, $T1, 16, 5, 0),"
          " (500, 700, 1, $T2, 17, 6, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId,"
          " correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES"
          " (815, 835, 0, 1, 7, 14, $G1, 4, 2, 2, 0), (105, 118, 0, 1, 7, 15, $G1, 4, 1, 1, 2);");
  std::vector<std::string> tables = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                     "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"};
  tables.insert(tables.end(), extra_tables.begin(), extra_tables.end());
  return stats::test::MakeReport(name, tables, rows + extra_sql);
}

TEST_CASE("sync_hotspots groups waits by thread and innermost NVTX range", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(LoopReport("sync_hotspots"), "sync_hotspots:warmup=0");
  CHECK(output.columns == Row{"Host Time (ns)", "Calls", "Avg (ns)", "Max (ns)", "Range Instances",
                              "PID", "TID", "NVTX Range", "Kind", "API Name", "Python Line"});
  CHECK(output.rows == TextRows{{"500", "1", "500.0", "500", "0", "100", "1", "", "device sync",
                                 "cudaDeviceSynchronize", ""},
                                {"200", "1", "200.0", "200", "0", "100", "2", "", "event sync",
                                 "cudaEventSynchronize", ""},
                                {"160", "3", "53.3", "70", "3", "100", "1", ":sync", "stream sync",
                                 "cudaStreamSynchronize", ""},
                                {"30", "1", "30.0", "30", "1", "100", "1", ":sync",
                                 "pageable async copy", "cudaMemcpyAsync", ""}});
  CHECK(output.window_note ==
        "Whole report analyzed (warmup=0); the repeating NVTX range is :step (3 instances).");
}

TEST_CASE("sync_hotspots names the Python line of each wait", "[analyze][rules][python]") {
  // Stacks of --python-backtrace=cuda: the first two stream syncs come from train.py:42 through
  // torch's Tensor.item (an installed package, skipped), the third from train.py:47.
  const std::string stacks =
      "INSERT INTO StringIds VALUES (20, 'Tensor.item'),"
      " (21, '/venv/lib/python3.12/site-packages/torch/_tensor.py'), (22, 'step'),"
      " (23, '/w/train.py');"
      "INSERT INTO CUDA_CALLCHAINS (id, symbol, module, unresolved, originalIP, stackDepth)"
      " VALUES (1, 20, 21, 0, 500, 0), (1, 22, 23, 0, 42, 1), (2, 22, 23, 0, 47, 0);"
      "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 1 WHERE correlationId IN (11, 12);"
      "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 2 WHERE correlationId = 13;";
  const RuleOutput output =
      RunRuleOn(LoopReport("sync_python", stacks, {"CUDA_CALLCHAINS"}), "sync_hotspots:warmup=0");
  CHECK(output.rows == TextRows{{"500", "1", "500.0", "500", "0", "100", "1", "", "device sync",
                                 "cudaDeviceSynchronize", ""},
                                {"200", "1", "200.0", "200", "0", "100", "2", "", "event sync",
                                 "cudaEventSynchronize", ""},
                                {"120", "2", "60.0", "70", "2", "100", "1", ":sync", "stream sync",
                                 "cudaStreamSynchronize", "train.py:42 step"},
                                {"40", "1", "40.0", "40", "1", "100", "1", ":sync", "stream sync",
                                 "cudaStreamSynchronize", "train.py:47 step"},
                                {"30", "1", "30.0", "30", "1", "100", "1", ":sync",
                                 "pageable async copy", "cudaMemcpyAsync", ""}});
}

TEST_CASE("the steady state skips the first step by default", "[analyze][rules]") {
  const RuleOutput output = RunRuleOn(LoopReport("steady_state"), "sync_hotspots");
  // Window [1000,3000]: the second and third :step only.
  CHECK(output.rows == TextRows{{"110", "2", "55.0", "70", "2", "100", "1", ":sync", "stream sync",
                                 "cudaStreamSynchronize", ""}});
  CHECK(output.window_note ==
        "Steady state: NVTX ranges :step 2 to 3 of 3 (1000 ns to 3000 ns); the first 1 skipped"
        " as warm-up (warmup=0 keeps them, step= picks the range).");
}

TEST_CASE("step= and warmup= choose the steady state", "[analyze][rules]") {
  const std::string report = LoopReport("steady_state_options");
  const auto kernels = [&](const std::string& rule) { return RunRuleOn(report, rule).rows[0][2]; };
  CHECK(kernels("overlap") == "2");
  CHECK(kernels("overlap:warmup=0") == "3");
  CHECK(kernels("overlap:warmup=2") == "1");
  // :fwd [1100,1300] [2100,2300] after one warm-up instance: the kernels inside them.
  CHECK(kernels("overlap:step=fwd") == "2");
  CHECK(RunRuleOn(report, "overlap:step=fwd:warmup=2").window_note ==
        "Steady state: NVTX ranges :fwd 3 to 3 of 3 (2100 ns to 2300 ns); the first 2 skipped"
        " as warm-up (warmup=0 keeps them, step= picks the range).");
  const RuleOutput too_few = RunRuleOn(report, "overlap:warmup=3");
  CHECK(too_few.rows[0][2] == "3");
  CHECK(too_few.window_note ==
        "Whole report analyzed: :step has only 3 instances, not more than warmup=3.");
  CHECK(RunRuleOn(report, "overlap:step=nope").window_note ==
        "Whole report analyzed: it has no NVTX range named 'nope'.");
  // start=/end=/nvtx= override the steady state.
  const RuleOutput explicit_window = RunRuleOn(report, "overlap:start=0:end=150");
  CHECK(explicit_window.rows[0][2] == "1");
  CHECK(explicit_window.window_note == "Window: as given by start=, end= or nvtx=.");
  CHECK(RunRuleOn(OverlapReport("no_steps"), "overlap").window_note ==
        "Whole report analyzed: no NVTX range repeats 3 or more times, so no warm-up step was"
        " skipped.");
}

}  // namespace
}  // namespace prof::analyze::test
