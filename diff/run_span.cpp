#include "diff/run_span.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <string_view>

namespace prof::diff {

Status ReadRunSpan(storage::Database* db, int64_t* span_ns) {
  constexpr std::array<std::string_view, 6> kTables = {"CUPTI_ACTIVITY_KIND_KERNEL",
                                                       "CUPTI_ACTIVITY_KIND_MEMCPY",
                                                       "CUPTI_ACTIVITY_KIND_MEMSET",
                                                       "CUPTI_ACTIVITY_KIND_RUNTIME",
                                                       "NVTX_EVENTS",
                                                       "OSRT_API"};
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  for (std::string_view table : kTables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (!exists) continue;
    storage::Statement statement;
    bool has_row = false;
    // NVTX marks and names have no end; max() skips them.
    if (!db->Prepare("SELECT min(start), max(end) FROM " + std::string(table), &statement).ok() ||
        !statement.Step(&has_row).ok()) {
      return Status::Error("cannot read the span of " + std::string(table) + " in " + db->path() +
                           ": " + db->ErrorText());
    }
    if (statement.ColumnIsNull(0) || statement.ColumnIsNull(1)) continue;
    first = std::min(first, statement.ColumnInt64(0));
    last = std::max(last, statement.ColumnInt64(1));
  }
  // A hostile report's extreme times must not overflow: the span saturates at INT64_MAX.
  const uint64_t span =
      last > first ? static_cast<uint64_t>(last) - static_cast<uint64_t>(first) : 0;
  *span_ns = static_cast<int64_t>(
      std::min<uint64_t>(span, static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
  return Status::Ok();
}

}  // namespace prof::diff
