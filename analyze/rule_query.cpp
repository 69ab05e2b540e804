#include "analyze/rule_query.h"

#include "analyze/analysis_window.h"
#include "stats/report_query.h"

namespace prof::analyze {
namespace {

// One line naming the rule and SQLite's reason (the storage messages quote the whole SQL).
Status RuleError(storage::Database* db, const RuleRequest& request) {
  return Status::Error("rule " + std::string(request.rule->name) + " failed on " + db->path() +
                       ": " + db->ErrorText());
}

// The end of the SKIPPED note of the first table of `required` the file lacks; unset when it has
// them all.
Status FindMissing(storage::Database* db, const std::vector<RequiredTable>& required,
                   std::optional<std::string_view>* missing) {
  for (const RequiredTable& table : required) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table.table, &exists));
    if (!exists) {
      *missing = table.missing;
      return Status::Ok();
    }
  }
  return Status::Ok();
}

// any_of_missing when the file has none of the rule's any_of_tables.
Status FindNoneOf(storage::Database* db, const RuleSpec& rule,
                  std::optional<std::string_view>* missing) {
  for (std::string_view table : rule.any_of_tables) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (exists) return Status::Ok();
  }
  if (!rule.any_of_tables.empty()) *missing = rule.any_of_missing;
  return Status::Ok();
}

// Which form of the rule the file allows: `*fallback` set for the fallback form, `*skip_note`
// when neither.
Status ChooseForm(storage::Database* db, const RuleSpec& rule, bool* fallback,
                  std::optional<std::string>* skip_note) {
  *fallback = false;
  std::optional<std::string_view> missing;
  PROF_RETURN_IF_ERROR(FindMissing(db, rule.required_tables, &missing));
  if (!missing) {
    PROF_RETURN_IF_ERROR(FindMissing(db, rule.main_form_tables, &missing));
    if (!missing) PROF_RETURN_IF_ERROR(FindNoneOf(db, rule, &missing));
    if (missing && rule.fallback) {
      *fallback = true;
      return Status::Ok();
    }
  }
  if (missing) {
    *skip_note = db->path() + " could not be analyzed because it " + std::string(*missing);
  }
  return Status::Ok();
}

Status SetOptions(storage::Database* db, const RuleRequest& request) {
  if (!db->Exec("CREATE TEMP TABLE IF NOT EXISTS rule_options (name TEXT PRIMARY KEY, value);"
                "DELETE FROM rule_options;")
           .ok()) {
    return RuleError(db, request);
  }
  storage::Statement insert;
  if (!db->Prepare("INSERT INTO rule_options VALUES (?, ?)", &insert).ok()) {
    return RuleError(db, request);
  }
  for (const auto& [name, value] : request.values) {
    insert.BindText(1, std::string_view(name));
    if (std::holds_alternative<int64_t>(value)) {
      insert.BindInt64(2, std::get<int64_t>(value));
    } else if (std::holds_alternative<std::string>(value)) {
      insert.BindText(2, std::string_view(std::get<std::string>(value)));
    } else {
      insert.BindNull(2);
    }
    if (!insert.Run().ok()) return RuleError(db, request);
  }
  return Status::Ok();
}

// Stand-ins go first: the rule's views read them.
Status CreateStandInsAndViews(storage::Database* db, const RuleRequest& request,
                              const std::vector<std::string_view>& views) {
  const RuleSpec& rule = *request.rule;
  std::vector<std::string_view> stood_in = rule.any_of_tables;
  stood_in.insert(stood_in.end(), rule.optional_tables.begin(), rule.optional_tables.end());
  for (std::string_view table : stood_in) {
    bool exists = false;
    PROF_RETURN_IF_ERROR(db->TableExists(table, &exists));
    if (exists) continue;
    const std::optional<std::string> sql = StandInSql(table);
    if (!sql) return Status::Error("no stand-in SQL compiled in for table " + std::string(table));
    if (!db->Exec(*sql).ok()) return RuleError(db, request);
  }
  for (std::string_view view : views) {
    const std::optional<std::string_view> sql = ViewSql(view);
    if (!sql) return Status::Error("no SQL compiled in for view " + std::string(view));
    if (!db->Exec(*sql).ok()) return RuleError(db, request);
  }
  return Status::Ok();
}

}  // namespace

Status RunRule(storage::Database* db, const RuleRequest& request, RuleResult* out) {
  *out = RuleResult{};
  const RuleSpec& rule = *request.rule;
  bool& fallback = out->fallback;
  PROF_RETURN_IF_ERROR(ChooseForm(db, rule, &fallback, &out->skip_note));
  if (out->skip_note) return Status::Ok();
  const std::optional<std::string_view> sql = fallback ? FallbackSql(rule) : RuleSql(rule);
  if (!sql) return Status::Error("no SQL compiled in for rule " + std::string(rule.name));
  WindowOutcome window;
  if (Status status = ApplyAnalysisWindow(db, request, &window); !status.ok()) {
    // Not every failure is SQLite's: a view where the report should hold a table is prof's own.
    return db->HasSqliteError() ? RuleError(db, request) : status;
  }
  out->skip_note = window.skip_note;
  out->window_note = window.note;
  if (out->skip_note) return Status::Ok();
  PROF_RETURN_IF_ERROR(SetOptions(db, request));
  PROF_RETURN_IF_ERROR(
      CreateStandInsAndViews(db, request, fallback ? rule.fallback->views : rule.views));
  if (!stats::RunQuery(db, *sql, &out->table).ok()) return RuleError(db, request);
  return Status::Ok();
}

}  // namespace prof::analyze
