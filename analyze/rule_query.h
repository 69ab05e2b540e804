// Applies one rule to an open report database and collects its rows.
#pragma once

#include <optional>
#include <string>

#include "analyze/rule_request.h"
#include "common/status.h"
#include "stats/result_table.h"
#include "storage/sqlite_database.h"

namespace prof::analyze {

// The outcome of one rule: its rows, or why it was skipped (the file lacks a table the rule
// needs, or the nvtx= range); a skipped rule has no rows.
struct RuleResult {
  // "<file> could not be analyzed because it does not contain ...", or the nvtx= range is missing.
  std::optional<std::string> skip_note;
  // Rules with warmup=: which part of the report was analyzed (analysis_window.h).
  std::string window_note;
  bool fallback = false;  // the rule ran its fallback form (RuleFallback)
  stats::ResultTable table;
};

// Checks the rule's tables, applies its window (analysis_window.h), fills the TEMP table
// rule_options(name, value) with its option values, creates empty stand-ins for its missing
// any_of_tables and its views (all TEMP: the file is untouched), then runs its SQL. `db` must
// come from stats::OpenReportDatabase.
Status RunRule(storage::Database* db, const RuleRequest& request, RuleResult* out);

}  // namespace prof::analyze
