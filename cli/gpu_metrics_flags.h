// The GPU metrics options of `prof profile`, spelled as nsys spells them, checked and turned into
// collector::GpuMetricsOptions (docs/gpu-metrics.md):
//   --gpu-metrics-devices=none|cuda-visible|all|<id>[,<id>...]|help
//   --gpu-metrics-frequency=HZ (10-200000)   --gpu-metrics-set=<name>|help
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "collector/gpu_metrics/gpu_metrics_options.h"
#include "collector/gpu_metrics/gpu_metrics_sampler.h"
#include "common/status.h"

namespace prof::cli {

// The options' text as given (empty: not given).
struct GpuMetricsFlags {
  std::string devices = "none";
  std::string frequency;
  std::string set;
};

// Adds the options to `profile`, storing their text in *flags (which must outlive parsing).
void RegisterGpuMetricsFlags(CLI::App* profile, GpuMetricsFlags* flags);

// Fails with one line naming the option and the accepted values.
Status ParseGpuMetricsFlags(const GpuMetricsFlags& flags, collector::GpuMetricsOptions* options);

// Whether a value is `help`: prof lists the devices or the sets (GpuMetricsHelp) and runs nothing.
bool AsksForGpuMetricsHelp(const GpuMetricsFlags& flags);
// The listings `help` asks for; the device list comes from `make_api`'s driver and CUPTI.
std::string GpuMetricsHelp(const GpuMetricsFlags& flags,
                           const collector::PmSamplingApiFactory& make_api);

}  // namespace prof::cli
