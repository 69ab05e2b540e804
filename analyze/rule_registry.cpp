#include "analyze/rule_registry.h"

#include <cctype>

#include "analyze/embedded_sql.h"
#include "analyze/rule_definitions.h"
#include "common/named_entries.h"
#include "stats/report_registry.h"

namespace prof::analyze {
namespace {

std::string LowerCase(std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

}  // namespace

const std::vector<RuleOption>& CommonOptions() {
  static const std::vector<RuleOption> options = {
      {"rows", OptionKind::kInteger, 50, "at most this many rows, -1 for all (default 50)", -1},
      {"start", OptionKind::kInteger, std::nullopt, "only data after this time (ns)", 0},
      {"end", OptionKind::kInteger, std::nullopt, "only data before this time (ns)", 0},
      {"nvtx", OptionKind::kText, std::nullopt,
       "only data of the first NVTX range of this name (<range>[@<domain>])"},
  };
  return options;
}

const std::vector<RuleSpec>& AllRules() {
  static const std::vector<RuleSpec> rules = [] {
    std::vector<RuleSpec> all = NsysRules();
    for (RuleSpec& rule : ProfRules()) all.push_back(std::move(rule));
    return all;
  }();
  return rules;
}

const RuleSpec* FindRule(std::string_view name) { return FindByName(AllRules(), name); }

std::string RuleNames() { return JoinNames(AllRules()); }

std::optional<std::string_view> RuleSql(const RuleSpec& rule) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), "rules/" + std::string(rule.name) + ".sql");
}

std::optional<std::string_view> FallbackSql(const RuleSpec& rule) {
  return FindEmbeddedFile(EmbeddedSqlFiles(), "fallbacks/" + std::string(rule.name) + ".sql");
}

std::optional<std::string_view> ViewSql(std::string_view view) {
  if (auto own = FindEmbeddedFile(EmbeddedSqlFiles(), "views/" + std::string(view) + ".sql"))
    return own;
  return stats::ViewSql(view);
}

std::optional<std::string> StandInSql(std::string_view table) {
  if (std::optional<std::string> prof_ddl = stats::StandInSql(table)) return prof_ddl;
  const std::optional<std::string_view> own =
      FindEmbeddedFile(EmbeddedSqlFiles(), "stand_ins/" + LowerCase(table) + ".sql");
  if (!own) return std::nullopt;
  return std::string(*own);
}

}  // namespace prof::analyze
