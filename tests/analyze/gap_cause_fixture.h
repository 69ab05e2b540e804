// A hand-made report of GPU gaps with known causes, shared by the gap_cause, gap_cause_sum and
// summary tests. All times in ns; T1 = pid 100 tid 1.
//
// pid 100, device 0 kernels (correlation: [start,end], launching call of T1 at):
//   1 [1000,2000] at 900; 2 [10000,11000] at 9950; 3 [20000,21000] at 19990;
//   4 [30000,31000] at 29000; 5 [40000,40050], no launching call in the report;
//   6 [40100,40200] at 40090; 7 [45200,46000] at 45100.
// Gaps over 1 us, and what T1 did meanwhile:
//   [2000,10000]  8000: pthread_cond_wait [2100,9900] (7800 ns), inside :data_wait [2050,9950]
//   [11000,20000] 9000: cudaStreamSynchronize [11500,19000] (7500 ns), inside the second :step
//   [21000,30000] 9000: read [21500,23000] covers less than half: host code, no range
//   [31000,40000] 9000: the next kernel has no launching call: nothing traced
//   [40200,45200] 5000: only the launch call: host code, no range
// :step [0,12000] [12000,24000] repeats only twice: no steady state.
#pragma once

#include <string>

namespace prof::analyze::test {

// Creates the report in a fresh temp directory named after `name`; returns its path. `more_rows`
// (SQL, $T1 for the thread) adds rows, e.g. PyTorch ranges around the gaps.
std::string GapCauseReport(const std::string& name, const std::string& more_rows = "");

}  // namespace prof::analyze::test
