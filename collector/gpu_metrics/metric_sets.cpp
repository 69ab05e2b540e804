#include "collector/gpu_metrics/metric_sets.h"

namespace prof::collector {
namespace {

// nsys's default metrics of each chip family with the counters nsys 2025.3 samples for them (its
// GpuMetrics/<chip>.config: a counter, then the "[Throughput %]" or per-second form). The families
// differ in a few counters: Hopper and datacenter Blackwell read the compute warps and PCIe through
// their "TriageCompute" counter domains (the plain counters read 0 and ~1 % on an H100), Ampere
// and Ada read GR Active through the front end's. NVLink is left out: nsys splits it into
// request/response and user/protocol data, which prof has not matched yet.
constexpr std::string_view kThroughput = ".avg.pct_of_peak_sustained_elapsed";
constexpr std::string_view kSmsActive = "SMs Active [Throughput %]";
constexpr std::string_view kComputeWarps = "Compute Warps in Flight [Throughput %]";
constexpr std::string_view kUnallocatedWarps = "Unallocated Warps in Active SMs [Throughput %]";

// How a family reads Unallocated Warps in Active SMs.
enum class Unallocated {
  kNone,     // the family has no such metric (Blackwell)
  kCounter,  // its own counter
  // SMs Active less Compute Warps: on an H100 its counter beside the TriageCompute warps zeroes
  // them (and reads SMs Active), and its TriageCompute form reads neither nsys's value nor this
  // difference, which nsys's own values equal (copies 98.8 - 80.5 = 18.3, GEMMs 96.3 - 14.4 = 81.9)
  kDerived,
};

std::vector<GpuMetric> FamilyMetrics(std::string_view gr_active, std::string_view compute_warps,
                                     Unallocated unallocated, std::string_view pcie_domain) {
  std::vector<GpuMetric> metrics = {
      {"GPC Clock Frequency [MHz]", "gpc__cycles_elapsed.avg.per_second"},
      {"SYS Clock Frequency [MHz]", "sys__cycles_elapsed.avg.per_second"},
      {"GR Active [Throughput %]", std::string(gr_active)},
      {kSmsActive, "sm__cycles_active" + std::string(kThroughput)},
      {"SM Issue [Throughput %]", "sm__inst_executed_realtime" + std::string(kThroughput)},
      {"Tensor Active [Throughput %]",
       "sm__pipe_tensor_cycles_active_realtime" + std::string(kThroughput)},
      {kComputeWarps, std::string(compute_warps) + "tpc__warps_active_shader_cs_realtime" +
                          std::string(kThroughput)},
  };
  if (unallocated == Unallocated::kCounter) {
    metrics.push_back(
        {kUnallocatedWarps, "tpc__warps_inactive_sm_active_realtime" + std::string(kThroughput)});
  } else if (unallocated == Unallocated::kDerived) {
    metrics.push_back({kUnallocatedWarps, "", kSmsActive, kComputeWarps});
  }
  metrics.push_back(
      {"DRAM Read Bandwidth [Throughput %]", "dram__read_throughput" + std::string(kThroughput)});
  metrics.push_back(
      {"DRAM Write Bandwidth [Throughput %]", "dram__write_throughput" + std::string(kThroughput)});
  metrics.push_back({"PCIe RX Throughput [Throughput %]",
                     std::string(pcie_domain) + "pcie__read_bytes" + std::string(kThroughput)});
  metrics.push_back({"PCIe TX Throughput [Throughput %]",
                     std::string(pcie_domain) + "pcie__write_bytes" + std::string(kThroughput)});
  return metrics;
}

// Turing and GA100 are missing: their PM sampling counts time in SYS clock cycles, not ns
// (CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL is refused there), which prof does not use.
const std::vector<MetricSet>& AllSets() {
  static const std::string kGrActive = "gr__cycles_active.sum.pct_of_peak_sustained_elapsed";
  static const std::vector<MetricSet> sets = {
      {"ga10x",
       "Ampere GA10x (RTX 30xx, A10, A40)",
       {"GA102", "GA103", "GA104", "GA106", "GA107"},
       FamilyMetrics("FE_A.TriageSCG.gr__cycles_active" + std::string(kThroughput), "",
                     Unallocated::kCounter, "")},
      {"ad10x",
       "Ada AD10x (RTX 40xx, L4, L40)",
       {"AD10"},
       FamilyMetrics("FE_B.TriageSCG.gr__cycles_active" + std::string(kThroughput), "",
                     Unallocated::kCounter, "")},
      {"gh100",
       "Hopper GH100 (H100, H200)",
       {"GH100"},
       FamilyMetrics(kGrActive, "TPC.TriageCompute.", Unallocated::kDerived, "PCI.TriageCompute.")},
      {"gb100",
       "Blackwell GB100 (B100, B200)",
       {"GB100", "GB110"},
       FamilyMetrics(kGrActive, "TPC.TriageCompute.", Unallocated::kNone, "PCI.TriageCompute.")},
      {"gb20x",
       "Blackwell GB20x (RTX 50xx, RTX PRO)",
       {"GB20"},
       FamilyMetrics(kGrActive, "", Unallocated::kNone, "")},
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
    for (const GpuMetric& metric : set.metrics) {
      text += "      " + std::string(metric.name);
      if (metric.derived()) {
        text += " = " + std::string(metric.minuend) + " - " + std::string(metric.subtrahend);
      }
      text += "\n";
    }
  }
  return text;
}

}  // namespace prof::collector
