// Copies one table of an attached input into the merged report, by the table's plan
// (merge_table_plan.h), in one INSERT ... SELECT: StringIds columns read through
// temp.string_map (merged_strings.h), time columns shifted by the input's offset, and in every
// table the serialized GlobalIds (columns globalPid, globalTid, endGlobalTid) given the input's
// bits 63..48 when it has its own (merge_inputs.h), CPU sample ids shifted by the input's offset.
//
// The first input that has the table creates it in the output: from prof's own definition of the
// table plus the input's columns that definition lacks (so nsys-only columns survive), or, for a
// table prof does not define, from the input's column list. An input's schema text is never run.
// A later input may lack columns (left NULL); a column the output lacks is an error naming the
// table and the files.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "merge/merge_table_plan.h"
#include "storage/sqlite_database.h"

namespace prof::merge {

struct TableSource {
  std::string_view schema;       // the attached input's name on the output connection
  std::string_view table;        // exact spelling, e.g. "CUPTI_ACTIVITY_KIND_KERNEL"
  std::string_view input_path;   // for error messages
  int64_t time_offset_ns = 0;    // added to every time column
  uint16_t process_id_bits = 0;  // MergeInput::process_id_bits
  int64_t sample_id_offset = 0;  // added to every sample id column (SampleIdOffset)
};

Status CopyTable(storage::Database* out, const TableSource& source, const TablePlan& plan);

// Refuses an attached input (one line naming `input_path`) whose tables are not plain data: a
// virtual table (reading it runs its module) or a generated column (reading it runs its
// expression). Before anything else of the input is read.
Status CheckPlainData(storage::Database* out, std::string_view schema, std::string_view input_path);

// The offset that moves the sample ids of attached input `schema` past every sample id the
// output already has (kSampleIdTables): the output's largest + 1 - the input's smallest; 0 when
// either has none.
Status SampleIdOffset(storage::Database* out, std::string_view schema, int64_t* offset);

}  // namespace prof::merge
