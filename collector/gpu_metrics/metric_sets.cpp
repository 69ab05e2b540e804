#include "collector/gpu_metrics/metric_sets.h"

namespace prof::collector {
namespace {

// The general-purpose metrics of nsys's default sets, with the PM sampling metrics CUPTI's
// documentation gives for each ("PM Sampling Metric Table"). NVLink is left out: nsys splits it
// into request/response and user/protocol data, whose counters prof has not matched yet.
const std::vector<GpuMetric>& GeneralMetrics() {
  static const std::vector<GpuMetric> metrics = {
      {"GPC Clock Frequency [MHz]", "gpc__cycles_elapsed.avg.per_second"},
      {"SYS Clock Frequency [MHz]", "sys__cycles_elapsed.avg.per_second"},
      {"GR Active [Throughput %]", "gr__cycles_active.sum.pct_of_peak_sustained_elapsed"},
      {"SMs Active [Throughput %]", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"},
      {"SM Issue [Throughput %]", "sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed"},
      {"Tensor Active [Throughput %]",
       "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
      {"Compute Warps in Flight [Throughput %]",
       "tpc__warps_active_shader_cs_realtime.avg.pct_of_peak_sustained_elapsed"},
      {"Unallocated Warps in Active SMs [Throughput %]",
       "tpc__warps_inactive_sm_active_realtime.avg.pct_of_peak_sustained_elapsed"},
      {"DRAM Read Bandwidth [Throughput %]",
       "dramc__read_throughput.avg.pct_of_peak_sustained_elapsed"},
      {"DRAM Write Bandwidth [Throughput %]",
       "dramc__write_throughput.avg.pct_of_peak_sustained_elapsed"},
      {"PCIe RX Throughput [Throughput %]", "pcie__read_bytes.avg.pct_of_peak_sustained_elapsed"},
      {"PCIe TX Throughput [Throughput %]", "pcie__write_bytes.avg.pct_of_peak_sustained_elapsed"},
  };
  return metrics;
}

// Turing and GA100 are missing: their PM sampling counts time in SYS clock cycles, not ns
// (CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL is refused there), which prof does not use.
const std::vector<MetricSet>& AllSets() {
  static const std::vector<MetricSet> sets = {
      {"ga10x",
       "Ampere GA10x (RTX 30xx, A10, A40)",
       {"GA102", "GA103", "GA104", "GA106", "GA107"},
       GeneralMetrics()},
      {"ad10x", "Ada AD10x (RTX 40xx, L4, L40)", {"AD10"}, GeneralMetrics()},
      {"gh100", "Hopper GH100 (H100, H200)", {"GH100"}, GeneralMetrics()},
      {"gb100", "Blackwell GB100 (B100, B200)", {"GB100", "GB110"}, GeneralMetrics()},
      {"gb20x", "Blackwell GB20x (RTX 50xx, RTX PRO)", {"GB20"}, GeneralMetrics()},
  };
  return sets;
}

}  // namespace

bool MetricSet::Supports(std::string_view chip) const {
  for (std::string_view prefix : chip_prefixes) {
    if (chip.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

const std::vector<MetricSet>& MetricSets() { return AllSets(); }

const MetricSet* FindMetricSet(std::string_view name) {
  for (const MetricSet& set : AllSets()) {
    if (set.name == name) return &set;
  }
  return nullptr;
}

const MetricSet* DefaultMetricSet(std::string_view chip) {
  for (const MetricSet& set : AllSets()) {
    if (set.Supports(chip)) return &set;
  }
  return nullptr;
}

std::string DescribeMetricSets() {
  std::string text =
      "GPU metric sets (--gpu-metrics-set=NAME; default: the set of each GPU's chip):\n";
  for (const MetricSet& set : AllSets()) {
    text += "  " + std::string(set.name) + ": " + std::string(set.description) + "\n";
    for (const GpuMetric& metric : set.metrics) text += "      " + std::string(metric.name) + "\n";
  }
  return text;
}

}  // namespace prof::collector
