// The steady state of a report for the rules that take step= and warmup= (found by
// stats/steady_state.h): the window they analyze, the TEMP table their SQL reads and the sentence
// that says which part of the report they looked at.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyze/rule_request.h"
#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::analyze {

struct SteadyStateWindow {
  // The window to analyze; unset when the whole report is (nothing repeats, warmup=0, too few
  // instances, or `explicit_window`).
  std::optional<int64_t> start;
  std::optional<int64_t> end;
  // One sentence saying which part of the report is analyzed and why.
  std::string note;
};

// Finds the step range of `request` (which must take warmup=) and fills the TEMP table
// analysis_steady_state(name, instances, skipped, start, end, medianDuration, steps) with it (no
// row when nothing repeats); steps is the number of instances in the analyzed window, NULL when
// `explicit_window` (start=/end=/nvtx= given), which also keeps the window as given.
Status ResolveSteadyState(storage::Database* db, const RuleRequest& request, bool explicit_window,
                          SteadyStateWindow* out);

}  // namespace prof::analyze
