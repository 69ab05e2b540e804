// Hand-made reports with CPU samples for cpu_in_gaps and summary, written through prof's
// ReportWriter as the collector writes them. All times in ns; process 100: thread 100
// "MainThread" (it launches every kernel), thread 101 "worker".
//
// CpuInGapsReport, a GPU trace with two idle gaps:
//   kernels of device 0: [1000,2000] [12000,13000] [21000,22000], launched by MainThread at 900,
//   11900 and 20950 (cudaLaunchKernel, 5 ns each).
//   gap 1 [2000,12000] 10000 ns: MainThread sampled at 2500, 3500, ... 11500: 7 times in
//     collate (/w/train.py:42) (Python frames <module> > train > collate), 3 times in memcpy
//     (libc, called from collate); it runs but is preempted [8000,8500]. worker runs until 4000,
//     then is blocked (threadState 2) until 30000. No OS runtime call: host code.
//   gap 2 [13000,21000] 8000 ns: MainThread is blocked from 12800 to 21000, in sem_wait
//     [12900,20950] (OSRT_API): an input wait. No sample.
//   Outside the gaps: MainThread sampled at 1500 in cudaLaunchKernel, worker at 12500 in decode.
//
// CpuOnlyReport, no GPU tables: :step push/pop ranges on MainThread [0,1000] [1000,2000]
//   [2000,3000] [3000,4000], so the steady state is [1000,4000]. MainThread sampled at 500 (in
//   the warm-up step) and at 1100, 1500, 1900, 2300 in collate (/w/train.py:42), 2700, 3100 in
//   memcpy; runs [0,5000]. worker sampled at 1200, 1600, 2000 in decode_jpeg (libjpeg), runs
//   [0,2500], blocked [2500,3500], runs [3500,...].
#pragma once

#include <string>

namespace prof::analyze::test {

// Each writes <fresh temp dir>/<name>.sqlite and returns its path.
std::string CpuInGapsReport(const std::string& name);
std::string CpuOnlyReport(const std::string& name);

}  // namespace prof::analyze::test
