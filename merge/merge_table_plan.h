// How `prof merge` carries each table of the nsys export schema into the merged report.
//
// Every table is one of:
// - events (NVTX_EVENTS, OSRT_API, the CUPTI_ACTIVITY_KIND_* tables, nsys's PROFILER_OVERHEAD,
//   ...): every row of every input, with its StringIds columns renumbered and its time columns
//   shifted onto the merged time base;
// - description rows (PROCESSES, ThreadNames, TARGET_INFO_*, META_DATA_CAPTURE, MPI_RANKS,
//   nsys's ProcessStreams, the ENUM_* tables): every distinct row of the inputs, StringIds columns
//   renumbered; rows two inputs share (the GPUs of one host, the enum rows) appear once;
// - rebuilt by the merge itself (StringIds, META_DATA_EXPORT, TARGET_INFO_SESSION_START_TIME,
//   PROF_SESSION): see merged_metadata.h and merged_strings.h.
// Tables of no kind (nsys-only tables whose ids prof does not know how to renumber) are left out,
// and the merge names them.
//
// Stack ids (COMPOSITE_EVENTS.id and SAMPLING_CALLCHAINS.id, which name the same CPU sample;
// OSRT_CALLCHAINS.id and OSRT_API.callchainId, which name an OS-runtime call's backtrace, 0 for
// none) are shifted together, by one offset per input, past the ids of the inputs before it: one
// offset past both id spaces keeps each apart. A callchainId of 0 stays 0.
//
// globalTid/globalPid are renumbered for an input whose pids an earlier input has (merge_inputs.h,
// table_copier.h); correlationId, deviceId, contextId and streamId are per process and are kept.
// GPU metric series (typeIds) of an input that an earlier input already has are given the input's
// own bits (merged_metric_types.h).
// Adding a table: one line in merge_table_plan.cpp.
#pragma once

#include <string_view>
#include <vector>

namespace prof::merge {

enum class TableMerge { kEvents, kDescriptionRows, kRebuilt };

struct TablePlan {
  std::string_view table;
  TableMerge merge;
  std::vector<std::string_view> string_id_columns;       // columns holding a StringIds id
  std::vector<std::string_view> time_columns;            // ns since the session start
  std::vector<std::string_view> sample_id_columns = {};  // stack ids, the tables' keys
  // GPU metric typeIds, read through temp.metric_type_map (merged_metric_types.h).
  std::vector<std::string_view> metric_type_columns = {};
  // A stack id another table's rows refer to, 0 for none (kept 0).
  std::vector<std::string_view> stack_reference_columns = {};
};

// The tables whose `id` column is a stack id (CPU samples', OS-runtime calls' backtraces).
inline constexpr std::string_view kSampleIdTables[] = {"COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS",
                                                       "OSRT_CALLCHAINS"};

// The plan of `table`; ENUM_* tables not listed are description rows. nullptr: left out.
const TablePlan* FindTablePlan(std::string_view table);

}  // namespace prof::merge
