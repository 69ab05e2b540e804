#include "collector/gpu_metrics/sampled_gpus.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

namespace prof::collector {
namespace {

constexpr uint64_t kNsPerSecond = 1'000'000'000;

std::string ReasonOf(const PmStart& start) {
  switch (start.failure) {
    case PmFailure::kNoPermission:
      return "the NVIDIA driver lets only administrators read GPU performance counters "
             "(NVreg_RestrictProfilingToAdminUsers=1): run prof as root, or put `options nvidia "
             "NVreg_RestrictProfilingToAdminUsers=0` in a file under /etc/modprobe.d/ and reboot";
    case PmFailure::kBusy:
      return "another profiler (nsys, ncu, DCGM, a second prof) holds the GPU's performance "
             "counters";
    case PmFailure::kUnsupported:
      return "CUPTI does not sample this GPU (" + start.detail + ")";
    case PmFailure::kFailed:
    case PmFailure::kNone:
      break;
  }
  return start.detail;
}

// Problems by reason, with the devices each applies to, in the order first seen.
class Problems {
 public:
  void Add(uint32_t device, std::string reason) {
    for (auto& [devices, text] : problems_) {
      if (text == reason) {
        devices.push_back(device);
        return;
      }
    }
    problems_.push_back({{device}, std::move(reason)});
  }
  void WriteTo(std::vector<std::string>* notes) const {
    for (const auto& [devices, reason] : problems_) {
      std::string list;
      for (uint32_t device : devices) list += (list.empty() ? "" : ", ") + std::to_string(device);
      notes->push_back(std::string("GPU metrics are not collected on GPU") +
                       (devices.size() > 1 ? "s " : " ") + list + ": " + reason);
    }
  }

 private:
  std::vector<std::pair<std::vector<uint32_t>, std::string>> problems_;
};

std::vector<const GpuDevice*> Chosen(const GpuMetricsOptions& options,
                                     const std::vector<GpuDevice>& devices, Problems* problems) {
  std::vector<const GpuDevice*> chosen;
  if (options.devices != GpuMetricsOptions::Devices::kListed) {
    for (const GpuDevice& device : devices) chosen.push_back(&device);
    return chosen;
  }
  for (uint32_t id : options.device_ids) {
    const auto found = std::find_if(devices.begin(), devices.end(),
                                    [id](const GpuDevice& device) { return device.id == id; });
    if (found == devices.end()) {
      problems->Add(id, "prof's CUDA driver shows " + std::to_string(devices.size()) +
                            " device(s); --gpu-metrics-devices=help lists them");
    } else {
      chosen.push_back(&*found);
    }
  }
  return chosen;
}

const MetricSet* SetFor(const GpuMetricsOptions& options, const GpuDevice& device,
                        Problems* problems) {
  if (options.set_name.empty()) {
    const MetricSet* set = DefaultMetricSet(device.chip);
    if (set == nullptr) {
      problems->Add(device.id, "prof has no metric set for its chip " + device.chip +
                                   " (--gpu-metrics-set=help lists the chips prof samples)");
    }
    return set;
  }
  const MetricSet* set = FindMetricSet(options.set_name);
  if (set != nullptr && !set->Supports(device.chip)) {
    problems->Add(device.id,
                  "--gpu-metrics-set=" + options.set_name + " is not for its chip " + device.chip);
    return nullptr;
  }
  return set;
}

// The set's derived metrics whose two metrics are among `metric_ids` (what a sample's values hold).
std::vector<MetricDifference> DifferencesOf(const MetricSet& set,
                                            const std::vector<size_t>& metric_ids) {
  auto value_index = [&](std::string_view name) -> std::optional<size_t> {
    for (size_t i = 0; i < metric_ids.size(); ++i) {
      if (set.metrics[metric_ids[i]].name == name) return i;
    }
    return std::nullopt;
  };
  std::vector<MetricDifference> differences;
  for (size_t id = 0; id < set.metrics.size(); ++id) {
    const GpuMetric& metric = set.metrics[id];
    if (!metric.derived()) continue;
    const std::optional<size_t> minuend = value_index(metric.minuend);
    const std::optional<size_t> subtrahend = value_index(metric.subtrahend);
    if (minuend && subtrahend) differences.push_back({id, *minuend, *subtrahend});
  }
  return differences;
}

// The metrics of `set` the chip lacks, as one note.
void NoteMissingMetrics(const SampledGpu& gpu, std::vector<std::string>* notes) {
  std::string missing;
  for (size_t id = 0; id < gpu.set->metrics.size(); ++id) {
    if (std::find(gpu.metric_ids.begin(), gpu.metric_ids.end(), id) != gpu.metric_ids.end() ||
        std::any_of(
            gpu.differences.begin(), gpu.differences.end(),
            [id](const MetricDifference& difference) { return difference.metric_id == id; })) {
      continue;
    }
    missing += (missing.empty() ? "" : ", ") + std::string(gpu.set->metrics[id].name);
  }
  if (missing.empty()) return;
  notes->push_back("GPU " + std::to_string(gpu.device.id) + " (" + gpu.device.chip +
                   ") has no counters for " + missing + "; sampling the rest");
}

}  // namespace

std::vector<SampledGpu> StartSampling(const GpuMetricsOptions& options, PmSamplingApi* api,
                                      std::vector<std::string>* notes) {
  std::vector<SampledGpu> sampled;
  if (const Status loaded = api->Load(); !loaded.ok()) {
    notes->push_back("GPU metrics are not collected: " + loaded.message());
    return sampled;
  }
  StatusOr<std::vector<GpuDevice>> devices = api->Devices();
  if (!devices.ok()) {
    notes->push_back("GPU metrics are not collected: " + devices.status().message());
    return sampled;
  }
  if (devices->empty()) {
    notes->push_back("GPU metrics are not collected: the CUDA driver shows no GPU");
    return sampled;
  }
  Problems problems;
  const uint64_t interval_ns = kNsPerSecond / options.frequency_hz;
  for (const GpuDevice* device : Chosen(options, *devices, &problems)) {
    const MetricSet* set = SetFor(options, *device, &problems);
    if (set == nullptr) continue;
    std::vector<std::string> counters;
    std::vector<size_t> counter_ids;  // each counter's position in the set
    for (size_t id = 0; id < set->metrics.size(); ++id) {
      if (set->metrics[id].derived()) continue;
      counters.emplace_back(set->metrics[id].counter);
      counter_ids.push_back(id);
    }
    PmStart start = api->Start(*device, counters, interval_ns);
    if (start.device == nullptr) {
      problems.Add(device->id, ReasonOf(start));
      continue;
    }
    std::vector<size_t> metric_ids;
    for (size_t index : start.collected) metric_ids.push_back(counter_ids.at(index));
    std::vector<MetricDifference> differences = DifferencesOf(*set, metric_ids);
    SampledGpu gpu{*device,
                   set,
                   std::move(metric_ids),
                   std::move(differences),
                   interval_ns,
                   std::move(start.device)};
    NoteMissingMetrics(gpu, notes);
    sampled.push_back(std::move(gpu));
  }
  problems.WriteTo(notes);
  return sampled;
}

std::string DescribeGpus(PmSamplingApi* api) {
  if (const Status loaded = api->Load(); !loaded.ok())
    return "GPUs: none (" + loaded.message() + ")\n";
  StatusOr<std::vector<GpuDevice>> devices = api->Devices();
  if (!devices.ok()) return "GPUs: none (" + devices.status().message() + ")\n";
  std::string text = "GPUs prof can sample (--gpu-metrics-devices=all or ids):\n";
  for (const GpuDevice& device : *devices) {
    const MetricSet* set = DefaultMetricSet(device.chip);
    text += "  " + std::to_string(device.id) + ": " + device.name + " (" + device.chip + ", " +
            (set != nullptr ? "metric set " + std::string(set->name) : "not supported") + ")\n";
  }
  if (devices->empty()) text += "  none\n";
  return text;
}

}  // namespace prof::collector
