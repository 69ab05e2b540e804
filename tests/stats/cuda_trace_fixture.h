// One hand-made report with CUDA API calls, GPU operations and NVTX ranges whose trace rows and
// GPU projections are worked out by hand in cuda_trace_fixture_test.cpp,
// nvtx_gpu_proj_fixture_test.cpp and kernel_range_reports_test.cpp. All times in ns. T1 = pid
// 100 / tid 1 (thread "main", priority 20), T2 = pid 100 / tid 2 (no name), P2 = pid 200 / tid 1.
//
// NVTX, default domain. Push/pop: T1 :outer [0,1000] > :inner [100,400] > :leaf [150,250];
//   T1 :idle [500,600] (inside :outer, no GPU work); T1 :inner [2000,2300]; T2 :other [0,1000].
//   Start/end: T1 :async [50,900].
// API calls (corr: thread [start,end] name -> GPU operation [start,end]):
//   1: T1 [110,120] cudaLaunchKernel_v7000 -> kernel K1 [1000,1100] (green context 3)
//   2: T1 [160,170] cudaLaunchKernel_v7000 -> kernel K2 [1200,1250]
//   3: T1 [300,450] cudaMemcpyAsync -> memcpy HtoD Pinned->Device 4,000,000 B [1300,1400]
//   4: T1 [700,710] cudaMemsetAsync -> memset Device 1,000 B [1500,1510]
//   5: T2 [100,110] cudaLaunchKernel_v7000 -> kernel K3 [2000,2100]
//   6: T1 [800,810] cudaStreamSynchronize (no GPU operation)
//   7: T1 [2010,2020] cudaGetDeviceProperties_v12000 -> memcpy DtoH 8 B [2500,2500] (zero length)
//   1: P2 [120,130] cudaLaunchKernel_v7000 -> kernel K4 [3000,3010] (same correlation id as T1's
//      first call: ids are per process)
#pragma once

#include <string>

namespace prof::stats::test {

// Creates the report in a fresh temp directory named after `name`; returns its path.
std::string MakeCudaTraceReport(const std::string& name);

}  // namespace prof::stats::test
