// The rules `prof analyze` knows, in the order they run by default.
//
// A rule is SQL plus an entry here. To add one:
//   1. write analyze/rules/<name>.sql: one SELECT with a header comment (what it finds, units,
//      row order) and one comment per output column. Times in ns with headers ending in " (ns)"
//      (--timeunit converts those), sizes in MB with headers ending in " (MB)". The SQL reads its
//      option values from the TEMP table rule_options(name, value), e.g.
//      `LIMIT (SELECT value FROM rule_options WHERE name = 'rows')`; every option of the rule
//      has a row there (its default when not given; NULL for an unset start=/end=/nvtx=);
//   2. list the file in PROF_ANALYZE_SQL_FILES (analyze/CMakeLists.txt);
//   3. add its entry to NsysRules() (nsys_rules.cpp) or ProfRules() (prof_rules.cpp).
// A rule may have a second form for files that lack the tables of its first (RuleFallback:
// cpu_in_gaps on a CPU-only report), in analyze/fallbacks/<name>.sql, listed the same way.
// The registry test checks that every entry has its SQL and every rule SQL file has an entry.
//
// Options, as nsys spells them: `-r <name>[:<option>=<value>...]` (`gpu_gaps:gap=300`). Every
// rule takes rows=, start=, end= and nvtx= (kCommonOptions); start=/end=/nvtx= never reach the SQL
// directly: analysis_window.h restricts the tables to that window before the rule runs.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::analyze {

enum class OptionKind { kInteger, kText };

struct RuleOption {
  std::string_view name;
  OptionKind kind;
  std::optional<int64_t> default_value;  // integers only; nullopt: unset unless given
  std::string_view help;                 // for --help and the docs' option list
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
};

// A table the rule reads, and what the SKIPPED note says when the file lacks it.
struct RequiredTable {
  std::string_view table;
  std::string_view missing;  // completes "SKIPPED: <file> could not be analyzed because it ..."
};

// What a rule runs instead of being skipped when the file lacks main_form_tables or every table of
// any_of_tables (required_tables still apply): fallbacks/<rule name>.sql with these views.
struct RuleFallback {
  std::vector<std::string_view> views;
  std::string advice;     // as RuleSpec's, for this form
  std::string no_result;  // as RuleSpec's, for this form
};

struct RuleSpec {
  std::string_view name;    // -r value and the SQL file's stem
  std::string_view title;   // shown as " ** <title> (<name>):" before the rule's output
  bool is_default = false;  // run when no -r is given (summary)
  std::vector<RequiredTable> required_tables;
  // GPU operation tables of which the rule needs at least one (nsys leaves out tables without
  // rows); each missing one is stood in for by an empty TEMP table.
  std::vector<std::string_view> any_of_tables;
  std::string_view any_of_missing;  // the SKIPPED note's end when all of them are missing
  // Tables only the rule's main form needs, checked before any_of_tables: without one of them the
  // rule runs `fallback`, or is skipped with the table's note when it has none.
  std::vector<RequiredTable> main_form_tables;
  std::optional<RuleFallback> fallback;
  // Tables the SQL reads when the file has them; each missing one is stood in for by an empty
  // TEMP table (e.g. nsys's PROFILER_OVERHEAD, which prof's reports never have).
  std::vector<std::string_view> optional_tables;
  // Views created on the connection before the SQL runs, in order: analyze/views/<view>.sql, or
  // a view of stats/views/ (nvtx_ranges, cuda_api_calls, ...).
  std::vector<std::string_view> views;
  // Options beyond kCommonOptions.
  std::vector<RuleOption> options;
  // Printed above the rows in column/table output: what the rows mean and the usual remedy.
  // "{<option>}" is replaced by that option's value.
  std::string advice;
  // Printed instead when the rule finds no rows; "{<option>}" as in advice.
  std::string no_result;
};

// rows=, start=, end=, nvtx=: the options every rule takes.
const std::vector<RuleOption>& CommonOptions();

// Every rule, default ones in order first.
const std::vector<RuleSpec>& AllRules();
// nullptr when no rule has that name.
const RuleSpec* FindRule(std::string_view name);
// "cuda_memcpy_async, cuda_memcpy_sync, ...", for error messages and help.
std::string RuleNames();

// The embedded SQL of a rule, view (analyze's, else stats's) or stand-in table; nullopt when the
// build lacks the file.
std::optional<std::string_view> RuleSql(const RuleSpec& rule);
// fallbacks/<name>.sql, the SQL of the rule's fallback form.
std::optional<std::string_view> FallbackSql(const RuleSpec& rule);
std::optional<std::string_view> ViewSql(std::string_view view);
// An empty TEMP stand-in for `table` when the file lacks it: prof's own DDL of the table
// (storage/tables/) or, for nsys-only tables, analyze/stand_ins/<table>.sql.
std::optional<std::string> StandInSql(std::string_view table);

}  // namespace prof::analyze
