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
#include "stats/rank_summary.h"
#include "stats/report_database.h"
#include "stats/report_file_columns.h"
#include "stats/report_inputs.h"
#include "stats/report_pool.h"
#include "stats/report_query.h"
#include "stats/report_rank.h"
#include "stats/report_selection.h"
#include "stats/size_unit.h"
#include "stats/time_unit.h"

namespace prof::stats {
namespace {

// One selected report's rows over every file; no table when no file had rows for it (or its
// tables).
struct QueriedReport {
  ReportRequest request;
  std::optional<ResultTable> table;
  std::optional<ResultTable> across_ranks;  // several files: rank_summary.h
  std::vector<std::string> skipped_paths;   // the files without rows for it, in input order
};

// What one file gave: only these small tables stay in memory, the file itself is closed.
struct FileResults {
  ReportFileLabel label;
  std::vector<std::string> warnings;
  // Per candidate report: whether the file has its tables, and its rows when there are any.
  std::vector<bool> present;
  std::vector<std::optional<ResultTable>> tables;
};

// The report's rows in `db`, in the output's units; nullopt when it has no rows or tables.
Status Query(storage::Database* db, const ReportRequest& request, const TimeUnit& time_unit,
             bool* present, std::optional<ResultTable>* out) {
  const ReportSpec& report = *request.report;
  PROF_RETURN_IF_ERROR(HasRequiredTables(db, report, present));
  if (!*present) return Status::Ok();
  ResultTable table;
  PROF_RETURN_IF_ERROR(RunReportQuery(db, report, request.options, &table));
  if (table.rows.empty()) return Status::Ok();
  ApplyTimeUnit(time_unit, &table);
  ApplySizeUnit(&table);
  *out = std::move(table);
  return Status::Ok();
}

// Said before the reports, so that nobody reads their numbers as complete.
std::vector<std::string> LostRecordWarnings(const std::string& path, storage::Database* db) {
  std::vector<std::string> warnings;
  const std::optional<int64_t> dropped = LostRecords(db, "dropped_records");
  if (dropped && *dropped > 0) {
    warnings.push_back("warning: " + path + " lost " + std::to_string(*dropped) +
                       " records while profiling (prof could not keep up); the reports below "
                       "miss them");
  }
  const std::optional<int64_t> torn = LostRecords(db, "torn_records");
  if (torn && *torn > 0) {
    warnings.push_back("warning: " + path + " lost " + std::to_string(*torn) +
                       " records that a process was writing when it died; the reports below "
                       "miss them");
  }
  for (const DataProblem& problem : DataProblems(db)) {
    // Said above from PROF_SESSION, which reports older than PROF_STATS have too.
    if (problem.name == "dropped_records" || problem.name == "torn_records") continue;
    warnings.push_back("warning: " + path + ": " + std::to_string(problem.value) + " " +
                       problem.description + " (" + problem.name + ")");
  }
  return warnings;
}

// Opens one file, runs every candidate report on it and closes it again.
Status QueryFile(const std::string& path, const std::vector<ReportRequest>& candidates,
                 const TimeUnit& time_unit, FileResults* out) {
  storage::Database db;
  PROF_RETURN_IF_ERROR(OpenReportDatabase(path, &db));
  out->label = MakeReportFileLabel(path, ReportRank(&db));
  out->warnings = LostRecordWarnings(path, &db);
  out->present.assign(candidates.size(), false);
  out->tables.resize(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    bool present = false;
    PROF_RETURN_IF_ERROR(Query(&db, candidates[i], time_unit, &present, &out->tables[i]));
    out->present[i] = present;
  }
  return Status::Ok();
}

// The reports named, or every default report (each file then runs those it has the tables of).
Status Candidates(const std::vector<std::string>& requested, std::vector<ReportRequest>* out) {
  if (!requested.empty()) return SelectReports(requested, nullptr, out);
  for (const ReportSpec& report : AllReports()) {
    if (report.is_default) out->push_back({&report, {}});
  }
  return Status::Ok();
}

// The candidates to print: the named ones, or the default reports any file has the tables of.
std::vector<size_t> ChosenReports(const StatsOptions& options,
                                  const std::vector<std::string>& report_paths,
                                  const std::vector<FileResults>& files, size_t candidates) {
  std::vector<size_t> chosen;
  for (size_t i = 0; i < candidates; ++i) {
    const bool any = std::any_of(files.begin(), files.end(),
                                 [i](const FileResults& file) { return file.present[i]; });
    if (any || !options.reports.empty()) chosen.push_back(i);
  }
  if (!options.reports.empty() || options.quiet) return chosen;
  for (size_t f = 0; f < files.size(); ++f) {
    const std::vector<bool>& present = files[f].present;
    if (std::none_of(present.begin(), present.end(), [](bool p) { return p; })) {
      spdlog::info("{} has no data for any default report", report_paths[f]);
    }
  }
  return chosen;
}

// One file: the report's own table. Several: one table of every file's rows, labeled
// (report_file_columns.h), and the summary across them (rank_summary.h).
QueriedReport Combine(const ReportRequest& request, size_t candidate,
                      const std::vector<std::string>& report_paths,
                      std::vector<FileResults>* files) {
  QueriedReport out;
  out.request = request;
  const bool labeled = files->size() > 1;
  const bool with_rank = std::any_of(files->begin(), files->end(),
                                     [](const FileResults& file) { return file.label.rank; });
  std::vector<RankTable> rank_tables;
  for (size_t f = 0; f < files->size(); ++f) {
    FileResults& file = (*files)[f];
    std::optional<ResultTable>& table = file.tables[candidate];
    if (!table) {
      out.skipped_paths.push_back(report_paths[f]);
      continue;
    }
    if (!labeled) {
      out.table = std::move(table);
      return out;
    }
    if (!out.table) out.table.emplace();
    AppendLabeledRows(file.label, with_rank, *table, &*out.table);
    rank_tables.push_back({RankName(file.label), &*table});
  }
  out.across_ranks = SummarizeAcrossRanks(rank_tables);
  for (FileResults& file : *files) file.tables[candidate].reset();  // copied into out.table
  return out;
}

void NoteSkipped(const QueriedReport& item, bool quiet) {
  if (quiet) return;
  std::fflush(stdout);  // keeps the notes after the reports printed before them
  for (const std::string& path : item.skipped_paths) {
    spdlog::info("SKIPPED: {} does not contain {}.", path, item.request.report->data_description);
  }
}

// A table to write: a report's rows, or its summary across ranks.
struct OutputTable {
  const ResultTable* table;
  std::string title;  // nsys's title line on stdout
  std::string stem;   // the part of a file name after the prefix
};

std::vector<OutputTable> OutputTables(const QueriedReport& item) {
  std::vector<OutputTable> tables;
  const std::string title(item.request.report->title);
  const std::string spelling = " (" + item.request.Spelling() + "):";
  if (item.table) tables.push_back({&*item.table, title + spelling, item.request.FileStem()});
  if (item.across_ranks) {
    tables.push_back({&*item.across_ranks, title + " across ranks" + spelling,
                      item.request.FileStem() + "_ranks"});
  }
  return tables;
}

std::string FilePath(const OutputTable& table, const ReportRun& run) {
  return OutputPath(run.target.value, table.stem, run.format.format->extension);
}

// Checks every file before writing the first, so that a failure leaves no file behind.
Status CheckOutputFiles(const std::vector<QueriedReport>& queried,
                        const std::vector<ReportRun>& runs, bool force_overwrite) {
  for (const ReportRun& run : runs) {
    if (run.target.kind != OutputTarget::Kind::kFiles) continue;
    for (const OutputTable& table : OutputTables(queried[run.report])) {
      PROF_RETURN_IF_ERROR(CheckOutputFile(FilePath(table, run), force_overwrite));
    }
  }
  return Status::Ok();
}

// On stdout, tables follow each other a blank line apart; column and table ones under nsys's
// title line. Files and commands get the table alone.
Status WriteTable(const OutputTable& table, const ReportRun& run, const StatsOptions& options,
                  bool* first_on_stdout) {
  const std::string text = run.format.Render(*table.table);
  switch (run.target.kind) {
    case OutputTarget::Kind::kStdout: {
      std::string out = *first_on_stdout ? "" : "\n";
      if (run.format.format->titled) out += " ** " + table.title + "\n\n";
      out += text;
      if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
        return Status::Error("cannot write the reports to stdout");
      }
      *first_on_stdout = false;
      return Status::Ok();
    }
    case OutputTarget::Kind::kFiles: {
      const std::string path = FilePath(table, run);
      PROF_RETURN_IF_ERROR(WriteOutputFile(path, text));
      if (!options.quiet) spdlog::info("wrote {}", path);
      return Status::Ok();
    }
    case OutputTarget::Kind::kCommand:
      return PipeToCommand(run.target.value, text);
  }
  return Status::Ok();
}

Status WriteRuns(const std::vector<QueriedReport>& queried, const std::vector<ReportRun>& runs,
                 const StatsOptions& options) {
  PROF_RETURN_IF_ERROR(CheckOutputFiles(queried, runs, options.force_overwrite));
  std::vector<bool> noted(queried.size(), false);
  bool first_on_stdout = true;
  for (const ReportRun& run : runs) {
    const QueriedReport& item = queried[run.report];
    if (!noted[run.report]) NoteSkipped(item, options.quiet);
    noted[run.report] = true;
    for (const OutputTable& table : OutputTables(item)) {
      PROF_RETURN_IF_ERROR(WriteTable(table, run, options, &first_on_stdout));
    }
  }
  if (std::fflush(stdout) != 0) return Status::Error("cannot write the reports to stdout");
  return Status::Ok();
}

}  // namespace

Status RunStats(const std::string& report_path, const StatsOptions& options) {
  return RunStats(std::vector<std::string>{report_path}, options);
}

Status RunStats(const std::vector<std::string>& arguments, const StatsOptions& options) {
  if (arguments.empty()) return Status::Error("no report file given (prof stats <report>...)");
  std::vector<std::string> report_paths;
  PROF_RETURN_IF_ERROR(ExpandReportInputs(arguments, &report_paths));
  PROF_ASSIGN_OR_RETURN(const OutputPlan plan, ParseOutputPlan(options, report_paths.front()));
  PROF_ASSIGN_OR_RETURN(const TimeUnit time_unit, ParseTimeUnit(options.time_unit));
  std::vector<ReportRequest> candidates;
  PROF_RETURN_IF_ERROR(Candidates(options.reports, &candidates));

  std::vector<FileResults> files(report_paths.size());
  {
    ProgressLine progress("stats");
    progress.Set("running " + std::to_string(candidates.size()) + " reports over " +
                 std::to_string(report_paths.size()) + " files");
    PROF_RETURN_IF_ERROR(ForEachReport(files.size(), options.jobs, [&](size_t i) {
      return QueryFile(report_paths[i], candidates, time_unit, &files[i]);
    }));
  }
  for (const FileResults& file : files) {
    for (const std::string& warning : file.warnings) spdlog::warn("{}", warning);
  }
  std::vector<QueriedReport> queried;
  for (size_t candidate : ChosenReports(options, report_paths, files, candidates.size())) {
    queried.push_back(Combine(candidates[candidate], candidate, report_paths, &files));
  }
  return WriteRuns(queried, PlanRuns(plan, queried.size()), options);
}

}  // namespace prof::stats
