#include "cli/gpu_metrics_flags.h"

#include <charconv>
#include <cstdint>
#include <system_error>

#include "collector/gpu_metrics/metric_sets.h"
#include "collector/gpu_metrics/sampled_gpus.h"
#include "common/split.h"

namespace prof::cli {
namespace {

using collector::GpuMetricsOptions;

// nsys's range for --gpu-metrics-frequency.
constexpr uint64_t kMinFrequencyHz = 10;
constexpr uint64_t kMaxFrequencyHz = 200000;

// A decimal integer (digits only), or false.
bool ParseNumber(const std::string& text, uint64_t* value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, *value);
  return !text.empty() && error == std::errc() && stop == end;
}

Status ParseDevices(const std::string& text, GpuMetricsOptions* options) {
  if (text == "none") return Status::Ok();
  if (text == "cuda-visible" || text == "all") {
    options->devices =
        text == "all" ? GpuMetricsOptions::Devices::kAll : GpuMetricsOptions::Devices::kCudaVisible;
    return Status::Ok();
  }
  options->devices = GpuMetricsOptions::Devices::kListed;
  for (const std::string& id : Split(text, ',')) {
    uint64_t value = 0;
    if (!ParseNumber(id, &value) || value > 255) {
      return Status::Error("--gpu-metrics-devices=" + text +
                           " is not a device list; prof accepts --gpu-metrics-devices="
                           "none|cuda-visible|all|help or CUDA device ids (0,1)");
    }
    options->device_ids.push_back(static_cast<uint32_t>(value));
  }
  return Status::Ok();
}

std::string SetNames() {
  std::string names;
  for (const collector::MetricSet& set : collector::MetricSets()) {
    names += (names.empty() ? "" : "|") + std::string(set.name);
  }
  return names;
}

}  // namespace

void RegisterGpuMetricsFlags(CLI::App* profile, GpuMetricsFlags* flags) {
  profile
      ->add_option("--gpu-metrics-devices,--gpu-metrics-device", flags->devices,
                   "Sample the GPUs' performance counters over the run: none, cuda-visible, all, "
                   "CUDA device ids (0,1), or help to list the GPUs")
      ->default_str("none");
  profile
      ->add_option("--gpu-metrics-frequency", flags->frequency,
                   "GPU metric samples per second of each GPU (10-200000)")
      ->default_str("10000");
  profile->add_option("--gpu-metrics-set", flags->set,
                      "The GPU metric set (help lists them; default: the set of each GPU's chip)");
}

Status ParseGpuMetricsFlags(const GpuMetricsFlags& flags, GpuMetricsOptions* options) {
  PROF_RETURN_IF_ERROR(ParseDevices(flags.devices, options));
  if (!flags.frequency.empty()) {
    uint64_t value = 0;
    if (!ParseNumber(flags.frequency, &value) || value < kMinFrequencyHz ||
        value > kMaxFrequencyHz) {
      return Status::Error("--gpu-metrics-frequency=" + flags.frequency +
                           " is not a rate between 10 and 200000 samples per second");
    }
    options->frequency_hz = static_cast<uint32_t>(value);
  }
  if (!flags.set.empty() && collector::FindMetricSet(flags.set) == nullptr) {
    return Status::Error("--gpu-metrics-set=" + flags.set +
                         " is not a metric set; prof accepts --gpu-metrics-set=" + SetNames() +
                         "|help");
  }
  options->set_name = flags.set;
  return Status::Ok();
}

bool AsksForGpuMetricsHelp(const GpuMetricsFlags& flags) {
  return flags.devices == "help" || flags.set == "help";
}

std::string GpuMetricsHelp(const GpuMetricsFlags& flags,
                           const collector::PmSamplingApiFactory& make_api) {
  std::string text;
  if (flags.set == "help") text += collector::DescribeMetricSets();
  if (flags.devices == "help") {
    std::unique_ptr<collector::PmSamplingApi> api = make_api ? make_api() : nullptr;
    text += api == nullptr ? "GPUs: none (this prof was built without CUPTI's headers)\n"
                           : collector::DescribeGpus(api.get());
  }
  return text;
}

}  // namespace prof::cli
