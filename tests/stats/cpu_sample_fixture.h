// A hand-made report with CPU samples, written through prof's ReportWriter as the collector
// writes them, for the CPU sample reports, the folded and Perfetto exports and the merge.
//
// Process 1234 "python": thread 1234 "MainThread", 10 samples (ids 1-10, at 100, 200, ... 1000 ns,
// cpu 0): 7 of main (/usr/bin/python3.12, native) > Trainer.train > Trainer.step (Python,
// /w/train.py) > matmul (/usr/lib/libtorch.so), 3 of main > Trainer.train > load_batch (Python,
// /w/data.py) > 0x7f0000001234 (unresolved, /usr/lib/libcuda.so.1); thread 1240 "loader", 4
// samples (ids 11-14, at 150 ... 450, cpu 1): 2 of start_thread (/usr/lib/libc.so.6) > fib > fib
// > fib (/w/libfib.so, recursion), 2 of start_thread > fib. NVTX push/pop ranges on thread 1234:
// "warmup" 0-250 and "batch" 650-950 (samples 7, 8 and 9).
// Process 2000 "trainer": thread 2000 "trainer", 5 samples (ids 15-19, at 120 ... 520, cpu 1): 3 of
// main > compute, 2 of main (both /usr/bin/trainer).
#pragma once

#include <string>

namespace prof::stats::test {

// Writes <fresh temp dir>/<name>.sqlite; returns its path.
std::string MakeCpuSampleReport(const std::string& name);

}  // namespace prof::stats::test
