#include "analyze/analyze_runner.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "analyze/rule_query.h"
#include "analyze/rule_request.h"
#include "stats/output_files.h"
#include "stats/output_format.h"
#include "stats/rank_summary.h"
#include "stats/report_database.h"
#include "stats/report_file_columns.h"
#include "stats/report_inputs.h"
#include "stats/report_pool.h"
#include "stats/report_rank.h"
#include "stats/size_unit.h"
#include "stats/time_unit.h"

namespace prof::analyze {
namespace {

// One rule's outcome, rendered: rows text, or why there is none.
struct RenderedRule {
  RuleRequest request;
  std::vector<std::string> skip_notes;  // the files the rule could not analyze
  bool skipped = false;                 // every file was: nothing but the notes to print
  std::string window_note;              // which part of the report a steady-state rule looked at
  std::optional<std::string> rows;      // the rendered table; nullopt when the rule found nothing
  std::optional<std::string> across_ranks;  // several files: the rendered rank_summary.h table
  std::string message;                      // advice above the rows, or the "no problem" sentence
  std::string limit_note;                   // set when rows= cut the rows short
};

// One file's outcome of every rule, in the output's units; the file itself is closed again, so
// memory holds these tables, not the files.
struct FileOutcome {
  stats::ReportFileLabel label;
  std::vector<RuleResult> results;  // per request
};

Status AnalyzeFile(const std::string& path, const std::vector<RuleRequest>& requests,
                   const stats::OutputSettings& settings, FileOutcome* out) {
  storage::Database db;
  PROF_RETURN_IF_ERROR(stats::OpenReportDatabase(path, &db));
  out->label = stats::MakeReportFileLabel(path, stats::ReportRank(&db));
  out->results.resize(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    RuleResult& result = out->results[i];
    PROF_RETURN_IF_ERROR(RunRule(&db, requests[i], &result));
    stats::ApplyTimeUnit(settings.time_unit, &result.table);
    stats::ApplySizeUnit(&result.table);
  }
  return Status::Ok();
}

// With several files each has its own steady state; one note stands for them when they agree.
std::string WindowNote(const std::vector<const RuleResult*>& analyzed) {
  if (analyzed.empty()) return "";
  for (const RuleResult* result : analyzed) {
    if (result->window_note != analyzed.front()->window_note) {
      return "Each file's own window (their steady states differ; prof analyze on one file "
             "prints its window).";
    }
  }
  return analyzed.front()->window_note;
}

// Request `index` over every file: one file's table as it is, several files' rows labeled
// (stats/report_file_columns.h) and summarized across ranks (stats/rank_summary.h).
RenderedRule Render(const RuleRequest& request, size_t index, const std::vector<FileOutcome>& files,
                    const stats::OutputSettings& settings) {
  RenderedRule out;
  out.request = request;
  const bool labeled = files.size() > 1;
  const bool with_rank = std::any_of(files.begin(), files.end(),
                                     [](const FileOutcome& file) { return file.label.rank; });
  std::vector<const RuleResult*> analyzed;
  std::vector<stats::RankTable> rank_tables;
  stats::ResultTable combined;
  const std::optional<int64_t> limit = request.Integer("rows");
  for (const FileOutcome& file : files) {
    const RuleResult& result = file.results[index];
    if (result.skip_note) {
      out.skip_notes.push_back(*result.skip_note);
      continue;
    }
    analyzed.push_back(&result);
    if (limit && *limit > 0 && result.table.rows.size() == static_cast<size_t>(*limit)) {
      out.limit_note = "Only the first " + std::to_string(*limit) +
                       " rows are shown; more may exist (rows=-1 shows all).";
    }
    if (!labeled) combined = result.table;
    if (!labeled || result.table.rows.empty()) continue;
    stats::AppendLabeledRows(file.label, with_rank, result.table, &combined);
    rank_tables.push_back({stats::RankName(file.label), &result.table});
  }
  out.skipped = analyzed.empty();
  if (out.skipped) return out;
  out.window_note = WindowNote(analyzed);
  const RuleSpec& rule = *request.rule;
  const bool fallback = analyzed.front()->fallback && rule.fallback;
  if (combined.rows.empty()) {
    out.message = request.Substitute(fallback ? rule.fallback->no_result : rule.no_result);
    return out;
  }
  out.message = request.Substitute(fallback ? rule.fallback->advice : rule.advice);
  // Findings are sentences: whole, not clipped to nsys's column width.
  const stats::FormatArgs args = stats::WithWholeCells(settings.format_args);
  out.rows = settings.format->render(combined, args);
  if (const std::optional<stats::ResultTable> summary = stats::SummarizeAcrossRanks(rank_tables)) {
    out.across_ranks = settings.format->render(*summary, args);
  }
  return out;
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

void NoteSkipped(const RenderedRule& item, bool quiet) {
  for (const std::string& note : item.skip_notes) Note("SKIPPED: " + note, quiet);
}

std::string TitledText(const RenderedRule& item) {
  const std::string spelling = " (" + item.request.Spelling() + "):\n\n";
  std::string text = " ** " + std::string(item.request.rule->title) + spelling;
  if (!item.window_note.empty()) text += item.window_note + "\n\n";
  text += item.message + "\n";
  if (!item.rows) return text;
  text += "\n" + *item.rows;
  if (!item.limit_note.empty()) text += "\n" + item.limit_note + "\n";
  if (item.across_ranks) {
    text += "\n ** " + std::string(item.request.rule->title) + " across ranks" + spelling +
            *item.across_ranks;
  }
  return text;
}

std::string UntitledText(const RenderedRule& item) {
  return *item.rows + (item.across_ranks ? "\n" + *item.across_ranks : "");
}

Status WriteToStdout(const std::vector<RenderedRule>& rendered,
                     const stats::OutputSettings& settings, bool quiet) {
  bool first = true;
  for (const RenderedRule& item : rendered) {
    NoteSkipped(item, quiet);
    if (item.skipped) continue;
    if (!settings.format->titled) NoteWindow(item, quiet);
    if (!item.rows && !settings.format->titled) {
      NoteNothingFound(item, quiet);
      continue;
    }
    const std::string text =
        (first ? "" : "\n") + (settings.format->titled ? TitledText(item) : UntitledText(item));
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      return Status::Error("cannot write the findings to stdout");
    }
    first = false;
  }
  if (std::fflush(stdout) != 0) return Status::Error("cannot write the findings to stdout");
  return Status::Ok();
}

// A rule's files: its rows, then its summary across ranks when there is one.
std::vector<std::pair<std::string, const std::string*>> OutputFiles(
    const RenderedRule& item, const stats::OutputSettings& settings, const std::string& prefix) {
  std::vector<std::pair<std::string, const std::string*>> files;
  if (!item.rows) return files;
  const std::string stem = item.request.FileStem();
  const std::string extension(settings.format->extension);
  files.emplace_back(stats::OutputPath(prefix, stem, extension), &*item.rows);
  if (item.across_ranks) {
    files.emplace_back(stats::OutputPath(prefix, stem + "_ranks", extension), &*item.across_ranks);
  }
  return files;
}

// Checks every target before writing the first, so that a failure leaves no file behind.
Status WriteToFiles(const std::vector<RenderedRule>& rendered,
                    const stats::OutputSettings& settings, const AnalyzeOptions& options) {
  for (const RenderedRule& item : rendered) {
    for (const auto& [path, text] : OutputFiles(item, settings, options.output)) {
      PROF_RETURN_IF_ERROR(stats::CheckOutputFile(path, options.force_overwrite));
    }
  }
  for (const RenderedRule& item : rendered) {
    NoteSkipped(item, options.quiet);
    if (item.skipped) continue;
    NoteWindow(item, options.quiet);
    if (!item.rows) {
      NoteNothingFound(item, options.quiet);
      continue;
    }
    for (const auto& [path, text] : OutputFiles(item, settings, options.output)) {
      PROF_RETURN_IF_ERROR(stats::WriteOutputFile(path, *text));
      Note("wrote " + path, options.quiet);
    }
  }
  return Status::Ok();
}

}  // namespace

Status RunAnalyze(const std::string& report_path, const AnalyzeOptions& options) {
  return RunAnalyze(std::vector<std::string>{report_path}, options);
}

Status RunAnalyze(const std::vector<std::string>& arguments, const AnalyzeOptions& options) {
  stats::OutputSettings settings;
  PROF_RETURN_IF_ERROR(stats::ResolveOutputSettings(options, &settings));
  std::vector<RuleRequest> requests;
  PROF_RETURN_IF_ERROR(SelectRules(options.rules, &requests));
  if (arguments.empty()) return Status::Error("no report file given (prof analyze <report>...)");
  std::vector<std::string> report_paths;
  PROF_RETURN_IF_ERROR(stats::ExpandReportInputs(arguments, &report_paths));

  std::vector<FileOutcome> files(report_paths.size());
  PROF_RETURN_IF_ERROR(stats::ForEachReport(files.size(), options.jobs, [&](size_t i) {
    return AnalyzeFile(report_paths[i], requests, settings, &files[i]);
  }));
  std::vector<RenderedRule> rendered;
  for (size_t i = 0; i < requests.size(); ++i) {
    rendered.push_back(Render(requests[i], i, files, settings));
  }
  return settings.to_stdout ? WriteToStdout(rendered, settings, options.quiet)
                            : WriteToFiles(rendered, settings, options);
}

}  // namespace prof::analyze
