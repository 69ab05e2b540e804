// The rule registry and the embedded SQL agree: every rule has its SQL and views, every rule SQL
// file belongs to a rule, and the stand-in tables the rules need exist.
#include "analyze/rule_registry.h"

#include <catch2/catch.hpp>

#include "analyze/embedded_sql.h"

namespace prof::analyze {
namespace {

TEST_CASE("every rule has its SQL and views compiled in", "[analyze][registry]") {
  for (const RuleSpec& rule : AllRules()) {
    INFO(rule.name);
    CHECK(RuleSql(rule).has_value());
    CHECK_FALSE(rule.title.empty());
    CHECK_FALSE(rule.advice.empty());
    CHECK_FALSE(rule.no_result.empty());
    for (std::string_view view : rule.views) CHECK(ViewSql(view).has_value());
    if (!rule.fallback) continue;
    CHECK(FallbackSql(rule).has_value());
    CHECK_FALSE(rule.fallback->advice.empty());
    CHECK_FALSE(rule.fallback->no_result.empty());
    for (std::string_view view : rule.fallback->views) CHECK(ViewSql(view).has_value());
  }
}

TEST_CASE("the rules are nsys's six then prof's own and only summary is default",
          "[analyze][registry]") {
  std::vector<std::string> names;
  std::vector<std::string> defaults;
  for (const RuleSpec& rule : AllRules()) {
    names.emplace_back(rule.name);
    if (rule.is_default) defaults.emplace_back(rule.name);
  }
  CHECK(names == std::vector<std::string>{"cuda_memcpy_async", "cuda_memcpy_sync",
                                          "cuda_memset_sync", "cuda_api_sync", "gpu_gaps",
                                          "gpu_time_util", "summary", "overlap", "sync_hotspots",
                                          "idle_class", "gap_cause", "gap_cause_sum", "cpu_in_gaps",
                                          "nccl_overlap", "nccl_skew", "gpu_underuse"});
  CHECK(defaults == std::vector<std::string>{"summary"});
}

TEST_CASE("every rule SQL file belongs to a rule", "[analyze][registry]") {
  int rule_files = 0;
  for (const EmbeddedFile& file : EmbeddedSqlFiles()) {
    if (file.path.rfind("rules/", 0) != 0) continue;
    ++rule_files;
    const std::string_view stem = file.path.substr(6, file.path.size() - 6 - 4);
    INFO(file.path);
    CHECK(FindRule(stem) != nullptr);
  }
  CHECK(rule_files == static_cast<int>(AllRules().size()));
}

TEST_CASE("stand-ins exist for the GPU tables and PROFILER_OVERHEAD", "[analyze][registry]") {
  for (std::string_view table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                 "CUPTI_ACTIVITY_KIND_MEMSET", "PROFILER_OVERHEAD"}) {
    INFO(table);
    const std::optional<std::string> sql = StandInSql(table);
    REQUIRE(sql.has_value());
    CHECK(sql->find("CREATE TEMP TABLE IF NOT EXISTS " + std::string(table) + " (") !=
          std::string::npos);
  }
  CHECK_FALSE(StandInSql("NO_SUCH_TABLE").has_value());
}

}  // namespace
}  // namespace prof::analyze
