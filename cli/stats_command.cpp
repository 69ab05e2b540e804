#include "cli/stats_command.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "cli/output_options.h"
#include "common/one_line.h"
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
  prof stats -r cuda_gpu_kern_sum rank0.sqlite rank1.sqlite
      One table over both reports, each row led by its File (and Rank, when recorded).)";
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
    AddOutputOptions(sub, "report", &options_);
    sub->add_option("reports", report_paths_,
                    "The reports: .sqlite files from prof profile or nsys export (several: one "
                    "table per report over all of them, with a File column)")
        ->required();
    return sub;
  }

  int Run() override {
    if (options_.quiet) spdlog::set_level(spdlog::level::err);
    const Status status = stats::RunStats(report_paths_, options_);
    if (!status.ok()) {
      spdlog::error("error: {}", OneLine(status.message()));
      return 1;
    }
    return 0;
  }

 private:
  stats::StatsOptions options_;
  std::vector<std::string> report_paths_;
};

}  // namespace

std::unique_ptr<Command> MakeStatsCommand() { return std::make_unique<StatsCommand>(); }

}  // namespace prof::cli
