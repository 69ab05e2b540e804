// Which GPUs are sampled, with which metrics: --gpu-metrics-devices and --gpu-metrics-set applied
// to the devices the driver shows, PM sampling started on each, and one line per problem (a device
// that is missing, unsupported, refused or busy) for the user. Launcher thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "collector/gpu_metrics/gpu_metrics_options.h"
#include "collector/gpu_metrics/metric_sets.h"
#include "collector/gpu_metrics/pm_sampling_api.h"

namespace prof::collector {

// A derived metric of the set (GpuMetric::derived) whose two metrics are both collected.
struct MetricDifference {
  size_t metric_id = 0;  // its position in the set
  size_t minuend = 0;    // positions in a sample's values
  size_t subtrahend = 0;
};

struct SampledGpu {
  GpuDevice device;
  const MetricSet* set = nullptr;
  std::vector<size_t> metric_ids;  // positions in set->metrics of the metrics collected, in order
  std::vector<MetricDifference> differences;
  uint64_t interval_ns = 0;
  std::unique_ptr<PmSamplingDevice> sampling;
};

// Starts PM sampling on the devices `options` asks for. Every device that does not sample, and
// the whole feature when none does, is said in *notes (one sentence each, devices that fail
// alike in one); the run goes on either way.
std::vector<SampledGpu> StartSampling(const GpuMetricsOptions& options, PmSamplingApi* api,
                                      std::vector<std::string>* notes);

// --gpu-metrics-devices=help: the GPUs the driver shows, each with its chip and default metric set,
// or the sentence saying why there are none.
std::string DescribeGpus(PmSamplingApi* api);

}  // namespace prof::collector
