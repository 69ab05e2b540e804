// The GPU-metrics tables (docs/gpu-metrics.md): the GPU's performance counters sampled over the run,
// as nsys's `--gpu-metrics-devices` writes them. Metric ids are the report's own: readers join
// GPU_METRICS to TARGET_INFO_GPU_METRICS on (typeId, metricId) and select metrics by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "storage/table_definition.h"

namespace prof::storage {

// GPU_METRICS.typeId (and TARGET_INFO_GPU_METRICS.sourceId) of a GPU, as nsys 2025.3's exports
// write it: the GlobalId VM bits (1 << 48), 1 << 32, and the GPU's id (TARGET_INFO_GPU.id) in the
// low byte, which readers take with `typeId & 0xFF` (an H100's GPU 0: 281479271677952).
constexpr int64_t GpuMetricsTypeId(uint32_t gpu_id) {
  return (int64_t{1} << 48) | (int64_t{1} << 32) | static_cast<int64_t>(gpu_id & 0xFF);
}

// One value of one metric of one GPU at one sample (GPU_METRICS). typeId: GpuMetricsTypeId().
struct GpuMetricRow {
  int64_t raw_timestamp = 0;  // the counter sample's start, in CUPTI's clock (ns)
  int64_t timestamp = 0;      // the same instant in ns since session start
  int64_t type_id = 0;
  int64_t metric_id = 0;
  int64_t value = 0;  // nsys's units: percentages 0-100; clocks in Hz whatever "[MHz]" says
};

// A metric a GPU was sampled for (TARGET_INFO_GPU_METRICS): written once per (typeId, metricId)
// before the metric's first value.
struct GpuMetricInfoRow {
  int64_t type_id = 0;
  int64_t source_id = 0;  // = type_id, as in nsys's exports
  std::string type_name;  // "GPU <id> <metric set>"; see docs/gpu-metrics.md
  int64_t metric_id = 0;
  std::string metric_name;  // nsys's names: "SMs Active [Throughput %]", ...
};

// clang-format off
inline constexpr auto kGpuMetricsTable = DefineTable<GpuMetricRow>("GPU_METRICS", TableCreation::kOnFirstRow, ColumnList(
    Column("rawTimestamp", kIntegerNotNull, &GpuMetricRow::raw_timestamp),
    Column("timestamp",    kIntegerNotNull, &GpuMetricRow::timestamp),
    Column("typeId",       kIntegerNotNull, &GpuMetricRow::type_id),
    Column("metricId",     kIntegerNotNull, &GpuMetricRow::metric_id),
    Column("value",        kIntegerNotNull, &GpuMetricRow::value))).CountedAs("GPU metric values");

inline constexpr auto kTargetInfoGpuMetricsTable = DefineTable<GpuMetricInfoRow>("TARGET_INFO_GPU_METRICS", TableCreation::kOnFirstRow, ColumnList(
    Column("typeId",     kIntegerNotNull, &GpuMetricInfoRow::type_id),
    Column("sourceId",   kIntegerNotNull, &GpuMetricInfoRow::source_id),
    Column("typeName",   kTextNotNull,    &GpuMetricInfoRow::type_name),
    Column("metricId",   kIntegerNotNull, &GpuMetricInfoRow::metric_id),
    Column("metricName", kTextNotNull,    &GpuMetricInfoRow::metric_name)));
// clang-format on

}  // namespace prof::storage
