// The report pairs the `prof diff` tests compare, with known changes. All times in ns; four steps
// start at t = 0, 10000, 20000, 30000, on device 0.
//
// Training pair (MakeTrainingBase / MakeTrainingNew), per step t:
//   base: range :step [t, t+3000]; cudaLaunchKernel_v7000 [t+10] 100 and [t+120] 100;
//         kernel gemm(float*) [t+200] 1000 (grid 8, block 128); relu [t+1200] 500 (grid 4);
//         step 0 only: copy_kernel [t+1700] 300; memcpy Host-to-Device [t+2000] 400;
//         OS runtime read [t+2500] 100.
//   new:  gemm 1200 (20% slower, regressed), relu [t+1400] 510 (+2%), :step [t, t+3100] (+3.3%),
//         cudaLaunchKernel 103 each (+3%); new: softmax [t+1910] 100 (overlaps the copy by 10 ns),
//         launched by cudaLaunchKernelExC_v11060 [t+230] 50; copy_kernel vanished; the copy and
//         read unchanged.
//   GPU busy: base 4 x 1900 + 300 = 7900 (ops back to back from t+200 to t+2400, copy_kernel's
//   300 in step 0); new 4 x 2200 = 8800 (t+200 to t+2400, overlap counted once): +11.4%,
//   regressed. GPU span 200 to 32400 = 32200 in both.
//
// Kernel-only runs (MakeGemmRun): four gemm(float*) kernels of one duration at t, nothing else;
// GPU busy = 4 x duration, span = 30000 + duration.
//
// NVTX/OSRT-only pair (MakeHostOnly): per step t, range Lib:load [t, t+2000] and read
// [t+100] read_ns.
//
// Waiting runs (MakeWaitingRun): per step t, range :step [t, t+2000+wait_ns] waiting inside in
// pthread_cond_wait [t+1000] wait_ns; the run spans 0 to 32000 + wait_ns.
#pragma once

#include <cstdint>
#include <string>

namespace prof::diff::test {

std::string MakeTrainingBase(const std::string& name);
std::string MakeTrainingNew(const std::string& name);
std::string MakeGemmRun(const std::string& name, int64_t gemm_ns);
std::string MakeHostOnly(const std::string& name, int64_t read_ns);
std::string MakeWaitingRun(const std::string& name, int64_t wait_ns);

}  // namespace prof::diff::test
