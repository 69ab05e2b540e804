// The GPU metric sets prof samples (--gpu-metrics-set): per chip family, which of CUPTI's PM
// sampling metrics are read and the name each gets in the report, nsys's name for the same
// quantity ("SMs Active [Throughput %]"), so that scripts written for nsys's exports find them.
//
// A set's metric ids in TARGET_INFO_GPU_METRICS are the metrics' positions in it (0-based, as
// nsys numbers them). Values are CUPTI's, rounded to integers: "[Throughput %]" metrics are
// percentages of the unit's peak (0-100); the clock metrics are in Hz, as nsys stores them
// despite the "[MHz]" in their names (docs/gpu-metrics.md).
//
// Adding a chip family: a set in kMetricSets (metric_sets.cpp) naming the chips (CUPTI's chip
// names, cuptiDeviceGetChipName) it is the default for; metrics the chip lacks are left out with a
// note when sampling starts, so a shared metric list is safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace prof::collector {

struct GpuMetric {
  std::string_view name;  // in the report: nsys's name
  std::string counter;    // CUPTI's metric: "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"
  // A metric whose counter cannot be read beside the set's others is the difference of two of
  // them (their names), at least 0, with `counter` empty: Hopper's Unallocated Warps
  // (docs/gpu-metrics.md).
  std::string_view minuend = {};
  std::string_view subtrahend = {};

  bool derived() const { return counter.empty(); }
};

struct MetricSet {
  std::string_view name;  // --gpu-metrics-set's value: "gh100"
  std::string_view description;
  std::vector<std::string_view> chip_prefixes;  // chips this set is for (and the default of)
  std::vector<GpuMetric> metrics;

  bool Supports(std::string_view chip) const;
};

const std::vector<MetricSet>& MetricSets();
// The set named `name`, or null.
const MetricSet* FindMetricSet(std::string_view name);
// The set for `chip` ("GH100"), or null when prof has none (the chip is not supported).
const MetricSet* DefaultMetricSet(std::string_view chip);
// --gpu-metrics-set=help: one line per set, its chips and its metrics.
std::string DescribeMetricSets();

}  // namespace prof::collector
