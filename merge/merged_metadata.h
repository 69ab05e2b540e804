// The tables `prof merge` writes itself rather than copies: META_DATA_EXPORT (the merged file's
// own export rows, with the inputs' schema version), TARGET_INFO_SESSION_START_TIME (the earliest
// session start: the merged time base) and PROF_SESSION (the inputs' rows combined, see below).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::merge {

// META_DATA_EXPORT as prof writes it for `final_path`, with `schema_version` ("3.20.3").
Status WriteExportMetadata(storage::Database* out, const std::string& final_path,
                           const std::string& schema_version);

// One row at `start_ns` (ns since the Unix epoch).
Status WriteSessionStart(storage::Database* out, int64_t start_ns);

// PROF_SESSION rows are gathered input by input in a TEMP table while each is attached (inputs
// without the table, such as nsys exports, add nothing), then written once:
// - dropped_records, torn_records, unknown_records, malformed_records, broken_streams,
//   cuda_dropped_records: summed;
// - duration_ns: the latest end (offset + duration) on the merged time base;
// - utc_epoch_ns_at_start: the merged start;
// - every other row (command_line, ...): each distinct name/value once, in input order;
// - and one `merged_from` row per input: its path as given.
// PROF_STATS: each counter once, its values summed over the inputs that have the table.
class SessionRowsMerger {
 public:
  static Status Create(storage::Database* out, SessionRowsMerger* merger);
  Status AddInput(std::string_view schema, int64_t offset_ns);
  Status Write(int64_t start_ns, const std::vector<std::string>& input_paths);

 private:
  Status HasTable(std::string_view schema, std::string_view table, bool* out);
  Status WriteStats();

  storage::Database* out_ = nullptr;
  int64_t inputs_with_rows_ = 0;
  int64_t inputs_with_stats_ = 0;
  int64_t next_input_ = 0;
};

}  // namespace prof::merge
