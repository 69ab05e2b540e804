// The GPU metric series of the merged report (GPU_METRICS, TARGET_INFO_GPU_METRICS). A series is
// a (typeId, metricId) pair; typeId's low byte names the GPU (TARGET_INFO_GPU.id, the kernels'
// deviceId, which merge keeps). Only one process can sample a GPU's counters at a time, so an
// input whose typeId an earlier input already has sampled another GPU of that id (another host)
// or another run: its typeIds get bits 63..48 of their own, the input's position + 1 (as
// GlobalIds do), keeping its series apart while typeId & 0xFF still names the GPU. Metric ids stay
// as they are: they are unique within a typeId. While an input is attached,
// temp.metric_type_map(old_id, new_id) holds its changed typeIds, and the table copier reads every
// typeId column through it.
//
// Runs on the output connection with the input attached as `schema`; its tables are TEMP.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::merge {

// Creates the TEMP tables; once per merge, before the first input.
Status CreateMetricTypeTables(storage::Database* out);
// Refills temp.metric_type_map for the input attached as `schema`, the `position`-th (from 0).
Status MapInputMetricTypes(storage::Database* out, std::string_view schema, int64_t position);

}  // namespace prof::merge
