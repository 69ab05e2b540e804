// The least change, in ns, that can make an item regress: the larger of --min-time (ns, default
// 5 ms) and --min-share percent (default 1) of the base run, the median of the base reports'
// traced spans (run_span.h). Two runs of one build differ by the scheduler's delays: on a busy
// machine a woken thread may wait a tick (4 ms at Linux's usual HZ=250) for a CPU, which one call
// or one range instance then carries whole; and such delays add up with the run's length, while a
// change far smaller than the run cannot matter to it.
#pragma once

#include <cstdint>
#include <string>

namespace prof::diff {

struct MinTime {
  int64_t ns = 5000000;  // one late wake-up, with a margin
  double run_pct = 1;
};

// The least change in ns for a base run of `base_run_ns`.
int64_t MinTimeNs(const MinTime& min_time, int64_t base_run_ns);

// For the summary line: "min-time 5000000 ns, 1% of the 85234992 ns run: 5000000 ns".
std::string DescribeMinTime(const MinTime& min_time, int64_t base_run_ns);

}  // namespace prof::diff
