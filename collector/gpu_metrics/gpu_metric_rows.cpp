#include "collector/gpu_metrics/gpu_metric_rows.h"

#include <string>

#include "storage/tables/gpu_metrics_tables.h"

namespace prof::collector {

void GpuMetricRows::Write(const GpuMetricValue& value) {
  storage::ReportWriter* writer = router_->WriterAt(value.time_ns);
  if (writer == nullptr) return;  // outside every capture window
  const SampledGpu& gpu = (*gpus_)[value.gpu];
  const int64_t type_id = storage::GpuMetricsTypeId(gpu.device.id);
  if (described_[writer].insert({value.gpu, value.metric_id}).second) {
    storage::GpuMetricInfoRow info;
    info.type_id = type_id;
    info.source_id = type_id;
    info.type_name = "GPU " + std::to_string(gpu.device.id) + " " + std::string(gpu.set->name);
    info.metric_id = value.metric_id;
    info.metric_name = std::string(gpu.set->metrics[value.metric_id].name);
    writer->Add<storage::kTargetInfoGpuMetricsTable>(info);
  }
  storage::GpuMetricRow row;
  row.raw_timestamp = static_cast<int64_t>(value.raw_timestamp);
  row.timestamp = static_cast<int64_t>(value.time_ns) - static_cast<int64_t>(session_start_ns_);
  row.type_id = type_id;
  row.metric_id = value.metric_id;
  row.value = value.value;
  writer->Add<storage::kGpuMetricsTable>(row);
  ++values_written_;
}

void GpuMetricRows::Import(GpuMetricsSampler* sampler) {
  sampler->TakeReady(&ready_);
  for (const GpuMetricValue& value : ready_) Write(value);
}

void GpuMetricRows::DescribeGpus() {
  for (CaptureRouter::Report& report : router_->reports()) {
    for (const SampledGpu& gpu : *gpus_) {
      report.importer->DescribeGpu(gpu.device.description, gpu.device.name);
    }
  }
}

}  // namespace prof::collector
