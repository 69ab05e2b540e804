#include "stats/stats_runner.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <optional>

#include "stats/dropped_records.h"
#include "stats/output_files.h"
#include "stats/output_format.h"
#include "stats/report_database.h"
#include "stats/report_query.h"
#include "stats/report_selection.h"
#include "stats/size_unit.h"
#include "stats/time_unit.h"

namespace prof::stats {
namespace {

// One selected report, rendered; no text when it had no rows (or lacked its tables).
struct RenderedReport {
  ReportRequest request;
  std::optional<std::string> text;
};

Status Render(storage::Database* db, const ReportRequest& request, const OutputSettings& settings,
              RenderedReport* out) {
  out->request = request;
  const ReportSpec& report = *request.report;
  bool present = false;
  if (Status status = HasRequiredTables(db, report, &present); !status.ok()) return status;
  if (!present) return Status::Ok();
  ResultTable table;
  if (Status status = RunReportQuery(db, report, request.options, &table); !status.ok()) {
    return status;
  }
  if (table.rows.empty()) return Status::Ok();
  ApplyTimeUnit(settings.time_unit, &table);
  ApplySizeUnit(&table);
  out->text = settings.format->render(table);
  return Status::Ok();
}

void NoteSkipped(const std::string& report_path, const ReportSpec& report, bool quiet) {
  if (quiet) return;
  std::fflush(stdout);  // keeps the note after the reports printed before it
  spdlog::info("SKIPPED: {} does not contain {}.", report_path, report.data_description);
}

// Reports one after another, a blank line apart; column and table ones under nsys's title line.
Status WriteToStdout(const std::vector<RenderedReport>& rendered, const std::string& report_path,
                     const OutputSettings& settings, bool quiet) {
  bool first = true;
  for (const RenderedReport& item : rendered) {
    if (!item.text) {
      NoteSkipped(report_path, *item.request.report, quiet);
      continue;
    }
    std::string text = first ? "" : "\n";
    if (settings.format->titled) {
      text += " ** " + std::string(item.request.report->title) + " (" + item.request.Spelling() +
              "):\n\n";
    }
    text += *item.text;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      return Status::Error("cannot write the reports to stdout");
    }
    first = false;
  }
  if (std::fflush(stdout) != 0) return Status::Error("cannot write the reports to stdout");
  return Status::Ok();
}

// Checks every target before writing the first, so that a failure leaves no file behind.
Status WriteToFiles(const std::vector<RenderedReport>& rendered, const std::string& report_path,
                    const OutputSettings& settings, const StatsOptions& options) {
  std::vector<std::string> paths;
  for (const RenderedReport& item : rendered) {
    paths.push_back(
        OutputPath(options.output, item.request.FileStem(), settings.format->extension));
    if (!item.text) continue;
    if (Status status = CheckOutputFile(paths.back(), options.force_overwrite); !status.ok()) {
      return status;
    }
  }
  for (size_t i = 0; i < rendered.size(); ++i) {
    if (!rendered[i].text) {
      NoteSkipped(report_path, *rendered[i].request.report, options.quiet);
      continue;
    }
    if (Status status = WriteOutputFile(paths[i], *rendered[i].text); !status.ok()) return status;
    if (!options.quiet) spdlog::info("wrote {}", paths[i]);
  }
  return Status::Ok();
}

}  // namespace

Status RunStats(const std::string& report_path, const StatsOptions& options) {
  OutputSettings settings;
  if (Status status = ResolveOutputSettings(options, &settings); !status.ok()) return status;
  storage::Database db;
  if (Status status = OpenReportDatabase(report_path, &db); !status.ok()) return status;
  // Before the reports, so that nobody reads their numbers as complete.
  if (const std::optional<int64_t> dropped = DroppedRecords(&db); dropped && *dropped > 0) {
    spdlog::warn(
        "warning: {} lost {} records while profiling (prof could not keep up); the "
        "reports below miss them",
        report_path, *dropped);
  }
  std::vector<ReportRequest> reports;
  if (Status status = SelectReports(options.reports, &db, &reports); !status.ok()) return status;
  if (reports.empty() && !options.quiet) {
    spdlog::info("{} has no data for any default report", report_path);
  }

  std::vector<RenderedReport> rendered(reports.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    if (Status status = Render(&db, reports[i], settings, &rendered[i]); !status.ok()) {
      return status;
    }
  }
  return settings.to_stdout ? WriteToStdout(rendered, report_path, settings, options.quiet)
                            : WriteToFiles(rendered, report_path, settings, options);
}

}  // namespace prof::stats
