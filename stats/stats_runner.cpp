#include "stats/stats_runner.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "stats/lost_records.h"
#include "stats/output_command.h"
#include "stats/output_files.h"
#include "stats/output_plan.h"
#include "stats/progress_line.h"
#include "stats/report_database.h"
#include "stats/report_file_columns.h"
#include "stats/report_query.h"
#include "stats/report_rank.h"
#include "stats/report_selection.h"
#include "stats/size_unit.h"
#include "stats/time_unit.h"

namespace prof::stats {
namespace {

// One report file given on the command line, opened.
struct InputReport {
  std::string path;
  storage::Database db;
  ReportFileLabel label;
};

// One selected report's rows over every file; no table when no file had rows for it (or its
// tables).
struct QueriedReport {
  ReportRequest request;
  std::optional<ResultTable> table;
  std::vector<std::string> skipped_paths;  // the files without rows for it, in input order
};

// The report's rows in `db`, in the output's units; nullopt when it has no rows or tables.
Status Query(storage::Database* db, const ReportRequest& request, const TimeUnit& time_unit,
             std::optional<ResultTable>* out) {
  const ReportSpec& report = *request.report;
  bool present = false;
  PROF_RETURN_IF_ERROR(HasRequiredTables(db, report, &present));
  if (!present) return Status::Ok();
  ResultTable table;
  PROF_RETURN_IF_ERROR(RunReportQuery(db, report, request.options, &table));
  if (table.rows.empty()) return Status::Ok();
  ApplyTimeUnit(time_unit, &table);
  ApplySizeUnit(&table);
  *out = std::move(table);
  return Status::Ok();
}

// One file: the report's own table. Several: one table of every file's rows, labeled
// (report_file_columns.h).
Status QueryAll(std::vector<InputReport>* inputs, const ReportRequest& request,
                const TimeUnit& time_unit, QueriedReport* out) {
  out->request = request;
  const bool labeled = inputs->size() > 1;
  const bool with_rank = std::any_of(inputs->begin(), inputs->end(),
                                     [](const InputReport& input) { return input.label.rank; });
  for (InputReport& input : *inputs) {
    std::optional<ResultTable> table;
    PROF_RETURN_IF_ERROR(Query(&input.db, request, time_unit, &table));
    if (!table) {
      out->skipped_paths.push_back(input.path);
      continue;
    }
    if (!labeled) {
      out->table = std::move(table);
    } else {
      if (!out->table) out->table.emplace();
      AppendLabeledRows(input.label, with_rank, *table, &*out->table);
    }
  }
  return Status::Ok();
}

void NoteSkipped(const QueriedReport& item, bool quiet) {
  if (quiet) return;
  std::fflush(stdout);  // keeps the notes after the reports printed before them
  for (const std::string& path : item.skipped_paths) {
    spdlog::info("SKIPPED: {} does not contain {}.", path, item.request.report->data_description);
  }
}

std::string FilePath(const QueriedReport& item, const ReportRun& run) {
  return OutputPath(run.target.value, item.request.FileStem(), run.format.format->extension);
}

// Checks every file before writing the first, so that a failure leaves no file behind.
Status CheckOutputFiles(const std::vector<QueriedReport>& queried,
                        const std::vector<ReportRun>& runs, bool force_overwrite) {
  for (const ReportRun& run : runs) {
    const QueriedReport& item = queried[run.report];
    if (run.target.kind != OutputTarget::Kind::kFiles || !item.table) continue;
    PROF_RETURN_IF_ERROR(CheckOutputFile(FilePath(item, run), force_overwrite));
  }
  return Status::Ok();
}

// On stdout, reports follow each other a blank line apart; column and table ones under nsys's
// title line. Files and commands get the report alone.
Status WriteRuns(const std::vector<QueriedReport>& queried, const std::vector<ReportRun>& runs,
                 const StatsOptions& options) {
  PROF_RETURN_IF_ERROR(CheckOutputFiles(queried, runs, options.force_overwrite));
  std::vector<bool> noted(queried.size(), false);
  bool first_on_stdout = true;
  for (const ReportRun& run : runs) {
    const QueriedReport& item = queried[run.report];
    if (!noted[run.report]) NoteSkipped(item, options.quiet);
    noted[run.report] = true;
    if (!item.table) continue;
    const std::string text = run.format.Render(*item.table);
    switch (run.target.kind) {
      case OutputTarget::Kind::kStdout: {
        std::string out = first_on_stdout ? "" : "\n";
        if (run.format.format->titled) {
          out += " ** " + std::string(item.request.report->title) + " (" + item.request.Spelling() +
                 "):\n\n";
        }
        out += text;
        if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
          return Status::Error("cannot write the reports to stdout");
        }
        first_on_stdout = false;
        break;
      }
      case OutputTarget::Kind::kFiles: {
        const std::string path = FilePath(item, run);
        PROF_RETURN_IF_ERROR(WriteOutputFile(path, text));
        if (!options.quiet) spdlog::info("wrote {}", path);
        break;
      }
      case OutputTarget::Kind::kCommand:
        PROF_RETURN_IF_ERROR(PipeToCommand(run.target.value, text));
        break;
    }
  }
  if (std::fflush(stdout) != 0) return Status::Error("cannot write the reports to stdout");
  return Status::Ok();
}

// Opens every file before any report runs, so that a bad file fails the run with nothing written.
Status OpenInputs(const std::vector<std::string>& report_paths, std::vector<InputReport>* out) {
  for (const std::string& path : report_paths) {
    InputReport input;
    input.path = path;
    PROF_RETURN_IF_ERROR(OpenReportDatabase(path, &input.db));
    input.label = MakeReportFileLabel(path, ReportRank(&input.db));
    out->push_back(std::move(input));
  }
  return Status::Ok();
}

// Before the reports, so that nobody reads their numbers as complete.
void WarnAboutLostRecords(std::vector<InputReport>* inputs) {
  for (InputReport& input : *inputs) {
    const std::optional<int64_t> dropped = LostRecords(&input.db, "dropped_records");
    if (dropped && *dropped > 0) {
      spdlog::warn(
          "warning: {} lost {} records while profiling (prof could not keep up); the "
          "reports below miss them",
          input.path, *dropped);
    }
    const std::optional<int64_t> torn = LostRecords(&input.db, "torn_records");
    if (torn && *torn > 0) {
      spdlog::warn(
          "warning: {} lost {} records that a process was writing when it died; the reports "
          "below miss them",
          input.path, *torn);
    }
    for (const DataProblem& problem : DataProblems(&input.db)) {
      // Said above from PROF_SESSION, which reports older than PROF_STATS have too.
      if (problem.name == "dropped_records" || problem.name == "torn_records") continue;
      spdlog::warn("warning: {}: {} {} ({})", input.path, problem.value, problem.description,
                   problem.name);
    }
  }
}

// The reports named, or the default reports any of the files has data for, in registry order.
Status SelectForAll(const std::vector<std::string>& requested, std::vector<InputReport>* inputs,
                    bool quiet, std::vector<ReportRequest>* out) {
  std::vector<const ReportSpec*> chosen;
  for (InputReport& input : *inputs) {
    std::vector<ReportRequest> selected;
    PROF_RETURN_IF_ERROR(SelectReports(requested, &input.db, &selected));
    if (selected.empty() && !quiet) {
      spdlog::info("{} has no data for any default report", input.path);
    }
    if (!requested.empty()) {  // named reports do not depend on the file
      *out = std::move(selected);
      return Status::Ok();
    }
    for (const ReportRequest& request : selected) chosen.push_back(request.report);
  }
  for (const ReportSpec& report : AllReports()) {
    if (std::find(chosen.begin(), chosen.end(), &report) != chosen.end()) {
      out->push_back({&report, {}});
    }
  }
  return Status::Ok();
}

}  // namespace

Status RunStats(const std::string& report_path, const StatsOptions& options) {
  return RunStats(std::vector<std::string>{report_path}, options);
}

Status RunStats(const std::vector<std::string>& report_paths, const StatsOptions& options) {
  if (report_paths.empty()) return Status::Error("no report file given (prof stats <report>...)");
  PROF_ASSIGN_OR_RETURN(const OutputPlan plan, ParseOutputPlan(options, report_paths.front()));
  PROF_ASSIGN_OR_RETURN(const TimeUnit time_unit, ParseTimeUnit(options.time_unit));
  std::vector<InputReport> inputs;
  PROF_RETURN_IF_ERROR(OpenInputs(report_paths, &inputs));
  WarnAboutLostRecords(&inputs);
  std::vector<ReportRequest> reports;
  PROF_RETURN_IF_ERROR(SelectForAll(options.reports, &inputs, options.quiet, &reports));

  std::vector<QueriedReport> queried(reports.size());
  {
    ProgressLine progress("stats");
    for (size_t i = 0; i < reports.size(); ++i) {
      progress.Set("running " + reports[i].Spelling() + " (" + std::to_string(i + 1) + " of " +
                   std::to_string(reports.size()) + ")");
      PROF_RETURN_IF_ERROR(QueryAll(&inputs, reports[i], time_unit, &queried[i]));
    }
  }
  return WriteRuns(queried, PlanRuns(plan, reports.size()), options);
}

}  // namespace prof::stats
