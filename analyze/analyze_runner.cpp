#include "analyze/analyze_runner.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <optional>

#include "analyze/rule_query.h"
#include "analyze/rule_request.h"
#include "stats/output_files.h"
#include "stats/output_format.h"
#include "stats/report_database.h"
#include "stats/size_unit.h"
#include "stats/time_unit.h"

namespace prof::analyze {
namespace {

// One rule's outcome, rendered: rows text, or why there is none.
struct RenderedRule {
  RuleRequest request;
  std::optional<std::string> skip_note;
  std::string window_note;          // which part of the report a steady-state rule looked at
  std::optional<std::string> rows;  // the rendered table; nullopt when the rule found nothing
  std::string message;              // advice above the rows, or the "no problem" sentence
  std::string limit_note;           // set when rows= cut the rows short
};

Status Render(storage::Database* db, const RuleRequest& request,
              const stats::OutputSettings& settings, RenderedRule* out) {
  out->request = request;
  RuleResult result;
  PROF_RETURN_IF_ERROR(RunRule(db, request, &result));
  out->skip_note = result.skip_note;
  out->window_note = result.window_note;
  if (out->skip_note) return Status::Ok();
  const RuleSpec& rule = *request.rule;
  const bool fallback = result.fallback && rule.fallback;
  if (result.table.rows.empty()) {
    out->message = request.Substitute(fallback ? rule.fallback->no_result : rule.no_result);
    return Status::Ok();
  }
  out->message = request.Substitute(fallback ? rule.fallback->advice : rule.advice);
  const std::optional<int64_t> limit = request.Integer("rows");
  if (limit && *limit > 0 && result.table.rows.size() == static_cast<size_t>(*limit)) {
    out->limit_note = "Only the first " + std::to_string(*limit) +
                      " rows are shown; more may exist (rows=-1 shows all).";
  }
  stats::ApplyTimeUnit(settings.time_unit, &result.table);
  stats::ApplySizeUnit(&result.table);
  // Findings are sentences: whole, not clipped to nsys's column width.
  out->rows = settings.format->render(result.table, stats::WithWholeCells(settings.format_args));
  return Status::Ok();
}

void Note(const std::string& text, bool quiet) {
  if (quiet) return;
  std::fflush(stdout);  // keeps the note after the output printed before it
  spdlog::info("{}", text);
}

// What a rule without rows logs when its sentence is not printed under a title.
void NoteNothingFound(const RenderedRule& item, bool quiet) {
  Note(item.request.Spelling() + ": " + item.message, quiet);
}

// Shown as a note where the output has no room for it (csv, tsv, json, files).
void NoteWindow(const RenderedRule& item, bool quiet) {
  if (!item.window_note.empty()) Note(item.request.Spelling() + ": " + item.window_note, quiet);
}

std::string TitledText(const RenderedRule& item) {
  std::string text =
      " ** " + std::string(item.request.rule->title) + " (" + item.request.Spelling() + "):\n\n";
  if (!item.window_note.empty()) text += item.window_note + "\n\n";
  text += item.message + "\n";
  if (!item.rows) return text;
  text += "\n" + *item.rows;
  if (!item.limit_note.empty()) text += "\n" + item.limit_note + "\n";
  return text;
}

Status WriteToStdout(const std::vector<RenderedRule>& rendered,
                     const stats::OutputSettings& settings, bool quiet) {
  bool first = true;
  for (const RenderedRule& item : rendered) {
    if (item.skip_note) {
      Note("SKIPPED: " + *item.skip_note, quiet);
      continue;
    }
    if (!settings.format->titled) NoteWindow(item, quiet);
    if (!item.rows && !settings.format->titled) {
      NoteNothingFound(item, quiet);
      continue;
    }
    const std::string text =
        (first ? "" : "\n") + (settings.format->titled ? TitledText(item) : *item.rows);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      return Status::Error("cannot write the findings to stdout");
    }
    first = false;
  }
  if (std::fflush(stdout) != 0) return Status::Error("cannot write the findings to stdout");
  return Status::Ok();
}

// Checks every target before writing the first, so that a failure leaves no file behind.
Status WriteToFiles(const std::vector<RenderedRule>& rendered,
                    const stats::OutputSettings& settings, const AnalyzeOptions& options) {
  std::vector<std::string> paths;
  for (const RenderedRule& item : rendered) {
    paths.push_back(
        stats::OutputPath(options.output, item.request.FileStem(), settings.format->extension));
    if (!item.rows) continue;
    PROF_RETURN_IF_ERROR(stats::CheckOutputFile(paths.back(), options.force_overwrite));
  }
  for (size_t i = 0; i < rendered.size(); ++i) {
    const RenderedRule& item = rendered[i];
    if (item.skip_note) {
      Note("SKIPPED: " + *item.skip_note, options.quiet);
      continue;
    }
    NoteWindow(item, options.quiet);
    if (!item.rows) {
      NoteNothingFound(item, options.quiet);
      continue;
    }
    PROF_RETURN_IF_ERROR(stats::WriteOutputFile(paths[i], *item.rows));
    Note("wrote " + paths[i], options.quiet);
  }
  return Status::Ok();
}

}  // namespace

Status RunAnalyze(const std::string& report_path, const AnalyzeOptions& options) {
  stats::OutputSettings settings;
  PROF_RETURN_IF_ERROR(stats::ResolveOutputSettings(options, &settings));
  std::vector<RuleRequest> requests;
  PROF_RETURN_IF_ERROR(SelectRules(options.rules, &requests));
  storage::Database db;
  PROF_RETURN_IF_ERROR(stats::OpenReportDatabase(report_path, &db));

  std::vector<RenderedRule> rendered(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    PROF_RETURN_IF_ERROR(Render(&db, requests[i], settings, &rendered[i]));
  }
  return settings.to_stdout ? WriteToStdout(rendered, settings, options.quiet)
                            : WriteToFiles(rendered, settings, options);
}

}  // namespace prof::analyze
