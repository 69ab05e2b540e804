// summary: findings ranked by recoverable GPU time, on reports whose answers are worked out by
// hand (gap_cause_fixture.h, and two small timelines below).
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"
#include "tests/analyze/gap_cause_fixture.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

TEST_CASE("summary ranks the findings by recoverable GPU time", "[analyze][rules]") {
  // The fixture's gaps over 1 us: host code 14000 ns (2 gaps), a stream sync 9000, a condition
  // wait 8000; the 9000 ns gap with no launching call is no finding. All 7 kernels are under
  // 10 us: launch-bound. The kernels span [1000,46000]: 45000 ns. No steady state: no per step.
  const RuleOutput output = RunRuleOn(GapCauseReport("summary"), "summary:gap=1");
  CHECK(output.columns == Row{"Rank", "Recoverable (ns)", "Per Step (ns)", "Window (%)", "Finding",
                              "Remedy", "Rows"});
  REQUIRE(output.rows.size() == 3);
  CHECK(output.rows[0] ==
        Row{"1", "14000", "", "31.1",
            "The GPU was idle 0.014 ms in 2 gaps while the host was launching work; 7 of 7 kernels"
            " ran under 10 us: the step is launch-bound.",
            "Launch less: CUDA graphs (torch.compile(mode=\"reduce-overhead\")), kernel fusion,"
            " AMP, larger batches.",
            "prof analyze -r gap_cause"});
  CHECK(output.rows[1] ==
        Row{"2", "9000", "", "20.0",
            "The GPU was idle 0.009 ms in 1 gap after the host waited in cudaStreamSynchronize in"
            " :step (1 stream, device or event syncs in the window, 0.008 ms blocked).",
            "Remove per-step syncs: no .item(), .cpu(), print(tensor) or torch.cuda.synchronize()"
            " in the loop; accumulate metrics on the GPU and read them every N steps.",
            "prof analyze -r sync_hotspots"});
  CHECK(output.rows[2] ==
        Row{"3", "8000", "", "17.8",
            "The GPU was idle 0.008 ms in 1 gap while the thread that feeds it was blocked in"
            " pthread_cond_wait in :data_wait: it was waiting for input data (DataLoader workers"
            " or file reads).",
            "More DataLoader workers (num_workers), prefetch_factor, persistent_workers=True,"
            " pin_memory=True; move preprocessing out of the training loop.",
            "prof analyze -r gap_cause_sum"});
}

// T1 launches kernels of 2000 ns: [1000,3000] [3010,5000] [5050,7000], and a copy [7000,9000]
// that no kernel overlaps. Per step: three :step ranges, one per kernel.
std::string BusyReport(const std::string& name, int64_t copy_end) {
  return stats::test::MakeReport(
      name,
      {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
       "NVTX_EVENTS"},
      KernelRows({{1000, 3000, 0, 7, 1}, {3010, 5000, 0, 7, 2}, {5050, 7000, 0, 7, 3}}) +
          WithIds("INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000'),"
                  " (3, 'cudaMemcpyAsync_v3020');"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
                  " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
                  " (10, 20, 1, $T1, 1, 2, 0), (30, 40, 1, $T1, 2, 2, 0),"
                  " (50, 60, 1, $T1, 3, 2, 0), (70, 80, 1, $T1, 4, 3, 0);"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
                  " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind)"
                  " VALUES (7000, " +
                  std::to_string(copy_end) +
                  ", 0, 1, 9, 4, $G1, 8, 1, 1, 2);"
                  "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                  " VALUES (0, 3000, 59, 'step', $T1, 0), (3000, 5000, 59, 'step', $T1, 0),"
                  " (5000, 9000, 59, 'step', $T1, 0);"));
}

TEST_CASE("summary names unhidden copies and a GPU-bound step", "[analyze][rules]") {
  // warmup=0: all of it. Idle 60 ns of 8000: busy 99.25%, printed 99.3. The 2000 ns copy could hide
  // behind at most the 5940 ns of kernels: 2000 recoverable, 666.7 per step (3 steps), 25.0% of
  // 8000 ns.
  const RuleOutput output = RunRuleOn(BusyReport("summary_busy", 9000), "summary:warmup=0");
  CHECK(output.rows ==
        TextRows{{"1", "2000", "666.7", "25.0",
                  "0.002 ms of the 0.002 ms of copies ran while no kernel did; overlapping them"
                  " with the 0.006 ms of kernels would hide up to 0.002 ms.",
                  "Copy the next batch ahead of time on a side stream, from pinned memory with"
                  " non_blocking=True, so copies overlap kernels.",
                  "prof analyze -r overlap"},
                 {"2", "", "", "",
                  "The GPUs were busy 99.3% of their time (0.000 ms idle of 0.008 ms): the step is"
                  " GPU-bound.",
                  "Make the kernels faster: AMP (torch.autocast with bf16 or fp16), TF32 matmuls,"
                  " fused or compiled kernels (torch.compile).",
                  "prof analyze -r gpu_time_util"}});
}

// BusyReport's GPU timeline (no gap over 100 us), but the copy reads pageable memory and each
// step ends in a cudaStreamSynchronize: the host blocks although the GPU never waits long.
// `more_rows` (SQL, $T1 for the thread) adds rows, e.g. NVTX ranges around the syncs.
std::string HostBlockedReport(const std::string& name, const std::string& more_rows = "") {
  return stats::test::MakeReport(
      name,
      {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
       "NVTX_EVENTS"},
      KernelRows({{1000, 3000, 0, 7, 1}, {3010, 5000, 0, 7, 2}, {5050, 7000, 0, 7, 3}}) +
          WithIds("INSERT INTO StringIds VALUES (1, 'kern'), (2, 'cudaLaunchKernel_v7000'),"
                  " (3, 'cudaMemcpyAsync_v3020'), (4, 'cudaStreamSynchronize_v3020');"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
                  " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
                  " (10, 20, 1, $T1, 1, 2, 0), (30, 40, 1, $T1, 2, 2, 0),"
                  " (50, 60, 1, $T1, 3, 2, 0), (6000, 9000, 1, $T1, 4, 3, 0),"
                  " (2000, 3000, 1, $T1, 5, 4, 0), (4000, 5000, 1, $T1, 6, 4, 0),"
                  " (9000, 9500, 1, $T1, 7, 4, 0);"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
                  " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind)"
                  " VALUES (7000, 9000, 0, 1, 9, 4, $G1, 1048576, 1, 0, 2);"
                  "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                  " VALUES (0, 3000, 59, 'step', $T1, 0), (3000, 5000, 59, 'step', $T1, 0),"
                  " (5000, 9600, 59, 'step', $T1, 0);" +
                  more_rows));
}

TEST_CASE("summary names per-step syncs that left no GPU gap but not rarer copies",
          "[analyze][rules]") {
  // No gap over the threshold, so the host's blocked time is what there is to win: the syncs
  // 1000 + 1000 + 500 ns, one per step (3 steps). The pageable copy's call blocked 3000 ns but once
  // in 3 steps: fewer than one per step is left out (reading every N steps is the remedy). The
  // copy [7000,9000] overlaps no kernel: 2000 ns unhidden. Window: the GPU span [1000,9000].
  const RuleOutput output =
      RunRuleOn(HostBlockedReport("summary_host_blocked"), "summary:warmup=0");
  REQUIRE(output.rows.size() == 3);
  CHECK(output.rows[0] == Row{"1", "2500", "833.3", "31.3",
                              "The host was blocked 0.003 ms in 3 stream, device or event syncs,"
                              " 1.0 per step.",
                              "Remove per-step syncs: no .item(), .cpu(), print(tensor) or"
                              " torch.cuda.synchronize() in the loop; accumulate metrics on the GPU"
                              " and read them every N steps.",
                              "prof analyze -r sync_hotspots"});
  CHECK(output.rows[1][4].rfind("0.002 ms of the 0.002 ms of copies ran while no kernel did", 0) ==
        0);
  CHECK(output.rows[2][6] == "prof analyze -r gpu_time_util");
}

TEST_CASE("summary names the PyTorch operator and module the syncs ran in", "[analyze][rules]") {
  // The syncs [2000,3000] and [4000,5000] each inside aten::item > aten::_local_scalar_dense
  // (operator ranges, default domain) under Net (Net) > Net.fc (Linear) (module ranges, domain
  // PyTorch): 2000 ns; the one at [9000,9500] outside every range: 500 ns. The hand-written
  // `loss.item` range is closer around the first sync but no operator.
  const std::string ranges =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, 0, 75, 'PyTorch', $T1, 1), (1000, 5200, 59, 'Net (Net)', $T1, 1),"
      " (1800, 5150, 59, 'Net.fc (Linear)', $T1, 1),"
      " (1900, 3100, 59, 'aten::item, seq = 0, op_id = 7', $T1, 0),"
      " (1950, 3050, 59, 'aten::_local_scalar_dense, seq = 0, op_id = 8', $T1, 0),"
      " (1990, 3010, 59, 'loss.item', $T1, 0),"
      " (3900, 5100, 59, 'aten::item, seq = 0, op_id = 9', $T1, 0),"
      " (3950, 5050, 59, 'aten::_local_scalar_dense, seq = 0, op_id = 10', $T1, 0);";
  const RuleOutput output =
      RunRuleOn(HostBlockedReport("summary_pytorch", ranges), "summary:warmup=0");
  REQUIRE(!output.rows.empty());
  CHECK(output.rows[0][4] ==
        "The host was blocked 0.003 ms in 3 stream, device or event syncs, 1.0 per step. Most of"
        " that time was spent in aten::_local_scalar_dense under Net.fc (Linear).");
}

TEST_CASE("summary names the PyTorch operator and module of the gap findings", "[analyze][rules]") {
  // The input wait gap [2000,10000] (middle 6000) inside the DataLoader's record_function scope;
  // of the host code gaps, [21000,30000] (9000 ns, middle 25500) inside aten::to under Net.fc
  // (Linear), [40200,45200] (5000 ns) outside every range. The operator range is also the
  // innermost NVTX range there, which the finding names as before.
  const std::string ranges =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, 0, 75, 'PyTorch', $T1, 1),"
      " (2020, 9960, 59, 'enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__,"
      " op_id = 3', $T1, 0),"
      " (24000, 27000, 59, 'Net.fc (Linear)', $T1, 1),"
      " (25000, 26000, 59, 'aten::to, seq = 0, op_id = 11', $T1, 0);";
  const RuleOutput output =
      RunRuleOn(GapCauseReport("summary_pytorch_gaps", ranges), "summary:gap=1");
  REQUIRE(output.rows.size() == 3);
  CHECK(output.rows[0][4] ==
        "The GPU was idle 0.014 ms in 2 gaps while the host was launching work in :aten::to, seq ="
        " 0, op_id = 11; 7 of 7 kernels ran under 10 us: the step is launch-bound. Most of that"
        " time was spent in aten::to under Net.fc (Linear).");
  // The sync's gap: its call [11500,19000] lies in no PyTorch range, so nothing is added.
  CHECK(output.rows[1][4] ==
        "The GPU was idle 0.009 ms in 1 gap after the host waited in cudaStreamSynchronize in"
        " :step (1 stream, device or event syncs in the window, 0.008 ms blocked).");
  CHECK(output.rows[2][4] ==
        "The GPU was idle 0.008 ms in 1 gap while the thread that feeds it was blocked in"
        " pthread_cond_wait in :data_wait: it was waiting for input data (DataLoader workers or"
        " file reads). Most of that time was spent in"
        " enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__.");
}

TEST_CASE("summary names the module whose backward a gap fell in", "[analyze][rules]") {
  // The host code gap [21000,30000] (middle 25500) lies in aten::mm inside MmBackward0 (seq 4),
  // the node made by the forward's aten::mm of seq 4, which ran in Net.fc (Linear).
  const std::string ranges =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, 0, 75, 'PyTorch', $T1, 1), (1000, 1500, 59, 'Net.fc (Linear)', $T1, 1),"
      " (1100, 1400, 59, 'aten::mm, seq = 4, op_id = 5', $T1, 0),"
      " (24000, 27000, 59, 'MmBackward0, seq = 4, op_id = 20', $T1, 0),"
      " (25000, 26000, 59, 'aten::mm, op_id = 21', $T1, 0);";
  const RuleOutput output =
      RunRuleOn(GapCauseReport("summary_pytorch_backward", ranges), "summary:gap=1");
  REQUIRE(!output.rows.empty());
  const std::string& sentence = output.rows[0][4];
  INFO(sentence);
  const std::string ending =
      "Most of that time was spent in aten::mm under the backward of Net.fc"
      " (Linear).";
  CHECK(sentence.size() > ending.size());
  CHECK(sentence.compare(sentence.size() - ending.size(), ending.size(), ending) == 0);
}

TEST_CASE("summary finds nothing where nothing is wrong", "[analyze][rules]") {
  // Kernels [1000,2000] and [2200,3000]: a 200 ns gap, under the 100 us threshold, yet 10% of the
  // time idle, so not GPU-bound either; no copy.
  const std::string report = stats::test::MakeReport(
      "summary_nothing", {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"},
      KernelRows({{1000, 2000, 0, 7, 1}, {2200, 3000, 0, 7, 2}}));
  CHECK(RunRuleOn(report, "summary").rows.empty());
}

}  // namespace
}  // namespace prof::analyze::test
