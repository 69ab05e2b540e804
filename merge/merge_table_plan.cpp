#include "merge/merge_table_plan.h"

#include <algorithm>

namespace prof::merge {
namespace {

// The StringIds and time columns, from storage/tables/ and nsys's schema.
const std::vector<TablePlan>& AllPlans() {
  static const std::vector<TablePlan> plans = {
      {"StringIds", TableMerge::kRebuilt, {}, {}},
      {"META_DATA_EXPORT", TableMerge::kRebuilt, {}, {}},
      {"TARGET_INFO_SESSION_START_TIME", TableMerge::kRebuilt, {}, {}},
      {"PROF_SESSION", TableMerge::kRebuilt, {}, {}},
      {"PROF_STATS", TableMerge::kRebuilt, {}, {}},
      {"DIAGNOSTIC_EVENT", TableMerge::kEvents, {}, {"timestamp"}},
      {"NVTX_EVENTS", TableMerge::kEvents, {"textId", "jsonTextId"}, {"start", "end"}},
      {"OSRT_API", TableMerge::kEvents, {"nameId"}, {"start", "end"}, {}, {}, {"callchainId"}},
      {"OSRT_CALLCHAINS", TableMerge::kEvents, {"symbol", "module"}, {}, {"id"}},
      {"COMPOSITE_EVENTS", TableMerge::kEvents, {}, {"start"}, {"id"}},
      {"SAMPLING_CALLCHAINS", TableMerge::kEvents, {"symbol", "module"}, {}, {"id"}},
      {"SCHED_EVENTS", TableMerge::kEvents, {}, {"start"}},
      {"CUPTI_ACTIVITY_KIND_RUNTIME", TableMerge::kEvents, {"nameId"}, {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_KERNEL",
       TableMerge::kEvents,
       {"demangledName", "shortName", "mangledName"},
       {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", TableMerge::kEvents, {}, {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_MEMSET", TableMerge::kEvents, {}, {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", TableMerge::kEvents, {}, {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", TableMerge::kEvents, {}, {"start", "end"}},
      {"CUPTI_ACTIVITY_KIND_CUDA_EVENT", TableMerge::kEvents, {}, {}},
      {"CUDA_GRAPH_EVENTS", TableMerge::kEvents, {"nameId"}, {"start", "end"}},
      {"CUDA_GPU_MEMORY_USAGE_EVENTS", TableMerge::kEvents, {}, {"start"}},
      {"CUBLAS_EVENTS", TableMerge::kEvents, {"nameId"}, {"start", "end"}},
      {"CUDNN_EVENTS", TableMerge::kEvents, {"nameId"}, {"start", "end"}},
      {"PROFILER_OVERHEAD", TableMerge::kEvents, {"nameId"}, {"start", "end"}},  // nsys only
      // rawTimestamp is the GPU's own clock: only the session timestamp moves.
      {"GPU_METRICS", TableMerge::kEvents, {}, {"timestamp"}, {}, {"typeId"}},
      {"PROCESSES", TableMerge::kDescriptionRows, {}, {}},
      {"ThreadNames", TableMerge::kDescriptionRows, {"nameId"}, {}},
      {"MPI_RANKS", TableMerge::kDescriptionRows, {}, {}},
      {"ProcessStreams", TableMerge::kDescriptionRows, {"filenameId", "contentId"}, {}},
      {"META_DATA_CAPTURE", TableMerge::kDescriptionRows, {}, {}},
      {"TARGET_INFO_GPU", TableMerge::kDescriptionRows, {}, {}},
      {"TARGET_INFO_CUDA_DEVICE", TableMerge::kDescriptionRows, {}, {}},
      {"TARGET_INFO_CUDA_CONTEXT_INFO", TableMerge::kDescriptionRows, {}, {}},
      {"TARGET_INFO_CUDA_STREAM", TableMerge::kDescriptionRows, {}, {}},
      {"TARGET_INFO_GPU_METRICS", TableMerge::kDescriptionRows, {}, {}, {}, {"typeId"}},
  };
  return plans;
}

}  // namespace

const TablePlan* FindTablePlan(std::string_view table) {
  const std::vector<TablePlan>& plans = AllPlans();
  const auto found = std::find_if(plans.begin(), plans.end(),
                                  [&](const TablePlan& plan) { return plan.table == table; });
  if (found != plans.end()) return &*found;
  // nsys's enum tables are (id, name, label) rows fixed by nsys's version: copied as they are.
  static const TablePlan kEnumTable = {"ENUM_*", TableMerge::kDescriptionRows, {}, {}};
  if (table.substr(0, 5) == "ENUM_") return &kEnumTable;
  return nullptr;
}

}  // namespace prof::merge
