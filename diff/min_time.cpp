#include "diff/min_time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace prof::diff {

int64_t MinTimeNs(const MinTime& min_time, int64_t base_run_ns) {
  const int64_t share = std::llround(min_time.run_pct / 100 * static_cast<double>(base_run_ns));
  return std::max(min_time.ns, share);
}

std::string DescribeMinTime(const MinTime& min_time, int64_t base_run_ns) {
  return fmt::format("min-time {} ns, {:g}% of the {} ns run: {} ns", min_time.ns, min_time.run_pct,
                     base_run_ns, MinTimeNs(min_time, base_run_ns));
}

}  // namespace prof::diff
