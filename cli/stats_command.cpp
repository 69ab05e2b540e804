#include "cli/stats_command.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/output_options.h"
#include "common/one_line.h"
#include "stats/report_help.h"
#include "stats/report_registry.h"
#include "stats/stats_runner.h"

namespace prof::cli {
namespace {

std::string DefaultReportNames() {
  std::string names;
  for (const stats::ReportSpec& report : stats::AllReports()) {
    if (report.is_default) names += (names.empty() ? "" : ", ") + std::string(report.name);
  }
  return names;
}

std::string Examples() {
  return R"(
Examples:
  prof stats report1.sqlite
      Print the default reports ()" +
         DefaultReportNames() + R"() whose data the report has.
  prof stats -r nvtx_pushpop_trace --timeunit usec report1.sqlite
      Print every NVTX push/pop range with its nesting, times in microseconds.
  prof stats -r nvtx_sum,osrt_sum -f csv -o out report1.sqlite
      Write out_nvtx_sum.csv and out_osrt_sum.csv.
  prof stats -r cuda_gpu_kern_sum -f csv,column -o .,- report1.sqlite
      Write report1_cuda_gpu_kern_sum.csv next to the report, then print the report.
  prof stats -r osrt_sum -f tsv:nohdr -o @"sort -n -k2" report1.sqlite
      Pipe the rows, without the header, into a command (-f and -o split at commas).
  prof stats -r cuda_gpu_kern_sum rank0.sqlite rank1.sqlite
      One table over both reports, each row led by its File (and Rank, when recorded),
      then the kernels' total times across the ranks: min, median, max, outlier ranks.
  prof stats -r nvtx_sum -j 8 runs/
      The same over every .sqlite file of runs/, eight files at a time.)";
}

class StatsCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub = app.add_subcommand(
        "stats", "Print summary reports of a report (prof's or an nsys SQLite export).");
    sub->footer(Examples());
    sub->add_option("-r,--report", options_.reports,
                    "Reports to run, comma-separated or repeated: " + stats::ReportNames() +
                        " (default: " + DefaultReportNames() + ", those with data)")
        ->delimiter(',')
        ->allow_extra_args(false);  // one value per -r, so the report path stays positional
    AddOutputOptions(sub, "report", OutputLists::kNsysLists, &options_);
    AddJobsOption(sub, &options_.jobs);
    help_reports_ = sub->add_option("--help-reports", help_report_,
                                    "List the reports; with a report name (or ALL), describe it")
                        ->expected(0, 1);
    // nsys re-exports a .nsys-rep with it; prof reads SQLite reports only, with nothing to
    // export, so it is accepted for nsys command lines and changes nothing.
    sub->add_flag("--force-export",
                  "Accepted for nsys command lines; no effect (prof reads "
                  ".sqlite reports, already exported)");
    // Not required by CLI11: --help-reports needs no report (RunStats refuses none).
    sub->add_option(
        "reports", report_paths_,
        "The reports: .sqlite files from prof profile or nsys export, directories (their *.sqlite "
        "files, sorted by name) or quoted patterns ('runs/rank*.sqlite', sorted) (several: one "
        "table per report over all of them, with a File column, then a summary "
        "across them)");
    return sub;
  }

  int Run() override {
    if (help_reports_->count() > 0) return HelpReports();
    if (options_.quiet) spdlog::set_level(spdlog::level::err);
    const Status status = stats::RunStats(report_paths_, options_);
    if (!status.ok()) {
      spdlog::error("error: {}", OneLine(status.message()));
      return 1;
    }
    return 0;
  }

 private:
  int HelpReports() const {
    // A bare --help-reports leaves no value or an empty one, depending on what follows it.
    const bool list = help_report_.empty() || help_report_.front().empty();
    const StatusOr<std::string> text = list ? StatusOr<std::string>(stats::ReportListText())
                                            : stats::ReportHelpText(help_report_.front());
    if (!text.ok()) {
      spdlog::error("error: {}", OneLine(text.status().message()));
      return 1;
    }
    std::fputs(text->c_str(), stdout);
    return 0;
  }

  stats::StatsOptions options_;
  std::vector<std::string> report_paths_;
  CLI::Option* help_reports_ = nullptr;
  std::vector<std::string> help_report_;  // empty: list the reports
};

}  // namespace

std::unique_ptr<Command> MakeStatsCommand() { return std::make_unique<StatsCommand>(); }

}  // namespace prof::cli
