// The time window of a rule's start=, end= and nvtx= options, as nsys's rules apply it: every
// table of the report that has `start` and `end` columns is replaced, for the rules' queries, by a
// TEMP view of the same name holding only its rows that overlap the window (SQLite resolves an
// unqualified name to temp before main; SQL that must see every row names `main.<table>`).
//
// - start=/end= give the window in ns (defaults: from 0, to the end of time).
// - nvtx=<range>[@<domain>] takes the window of the first (earliest) NVTX range of that name
//   (domain given only for ranges outside the default domain); explicit start=/end= override its
//   ends. A push/pop range also restricts rows to its thread (tables with globalTid), a start/end
//   range to its process (globalTid or globalPid); rows of tables with neither are filtered by
//   time only.
// Rows are kept whole (not clipped to the window), as nsys does.
//
// Steady state (prof's rules, which take step= and warmup=): without start=/end=/nvtx= the window
// is the report's steady state (steady_state.h).
#pragma once

#include <optional>
#include <string>

#include "analyze/rule_request.h"
#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::analyze {

struct WindowOutcome {
  // Set when the nvtx= range does not exist (nothing is filtered; the rule is skipped, as nsys
  // skips it) or the window ends before it starts.
  std::optional<std::string> skip_note;
  // For rules with warmup=: one sentence saying which time the rule looked at and why.
  std::string note;
};

// Drops the views of a previous window, then creates those of `request` (none when it has no
// window).
Status ApplyAnalysisWindow(storage::Database* db, const RuleRequest& request, WindowOutcome* out);

}  // namespace prof::analyze
