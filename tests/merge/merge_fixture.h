// Two small reports of one two-rank job, as `prof profile -o rank%q{RANK}` writes them, for the
// merge tests; their merged contents are worked out by hand in merge_test.cpp.
#pragma once

#include <string>

namespace prof::merge::test {

// Rank 0: pid 100, session start 1,000,000,000 ns (UTC). StringIds 0 step, 1 gemm, 2 main.
//   kernel gemm [10,20]; NVTX push/pop step [5,30] on tid 1; thread 1 named main; GPU H200;
//   PROF_SESSION command_line "python train.py", duration_ns 100, dropped_records 2.
std::string RankZeroReport(const std::string& name);
// Rank 1: pid 200, session start 500 ns later. StringIds 0 gemm, 1 ncclKernel_AllReduce,
//   2 step, 3 main. kernels gemm [10,20], ncclKernel_AllReduce [30,40]; NVTX step [5,30];
//   thread 1 named main; the same GPU row; PROF_SESSION the same command line, duration_ns 50,
//   dropped_records 3.
std::string RankOneReport(const std::string& name);

// A report with `sql` run after the rank-0 (rank-1) rows (to make a bad input out of it, or add
// tables).
std::string RankZeroReportWith(const std::string& name, const std::string& sql);
std::string RankOneReportWith(const std::string& name, const std::string& sql);

}  // namespace prof::merge::test
