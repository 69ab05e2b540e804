#include "cli/analyze_command.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "analyze/analyze_runner.h"
#include "analyze/rule_registry.h"
#include "cli/output_options.h"
#include "common/one_line.h"

namespace prof::cli {
namespace {

std::string DefaultRuleNames() {
  std::string names;
  for (const analyze::RuleSpec& rule : analyze::AllRules()) {
    if (rule.is_default) names += (names.empty() ? "" : ", ") + std::string(rule.name);
  }
  return names;
}

std::string OptionHelp(const analyze::RuleOption& option) {
  return "      " + std::string(option.name) + "=  " + std::string(option.help) + "\n";
}

std::string Footer() {
  std::string text = "\nRules and their options (-r <rule>:<option>=<value>:...):\n";
  for (const analyze::RuleSpec& rule : analyze::AllRules()) {
    text += "  " + std::string(rule.name) + " -- " + std::string(rule.title) + "\n";
    for (const analyze::RuleOption& option : rule.options) text += OptionHelp(option);
  }
  text += "  Every rule also takes:\n";
  for (const analyze::RuleOption& option : analyze::CommonOptions()) text += OptionHelp(option);
  text += R"(
Examples:
  prof analyze report1.sqlite
      Print the findings of the steady state, ranked by the GPU time they cost.
  prof analyze -r gpu_gaps:gap=100,cuda_api_sync:nvtx=step report1.sqlite
      GPU gaps over 100 ms; synchronizing calls inside the first "step" NVTX range.
  prof analyze -r cuda_memcpy_async -f csv -o out report1.sqlite
      Write out_cuda_memcpy_async.csv.
  prof analyze -r gpu_gaps:gap=1,nccl_overlap runs/
      Every .sqlite file of runs/: the gaps and NCCL overlap of each rank, then each rule's
      total across the ranks (min, median, max, outlier ranks).)";
  return text;
}

class AnalyzeCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub = app.add_subcommand(
        "analyze", "Find the problems of a report (prof's or an nsys SQLite export).");
    sub->footer(Footer());
    sub->add_option("-r,--rule", options_.rules,
                    "Rules to apply, comma-separated or repeated: " + analyze::RuleNames() +
                        " (default: " + DefaultRuleNames() + ")")
        ->delimiter(',')
        ->allow_extra_args(false);  // one value per -r, so the report path stays positional
    AddOutputOptions(sub, "rule", OutputLists::kOne, &options_);
    AddJobsOption(sub, &options_.jobs);
    sub->add_option(
           "reports", report_paths_,
           "The reports: .sqlite files from prof profile or nsys export, directories (their "
           "*.sqlite "
           "files, sorted by name) or quoted patterns ('runs/rank*.sqlite', sorted) (several: one "
           "table per rule over all of them, with a File column, then a summary "
           "across them)")
        ->required();
    return sub;
  }

  int Run() override {
    if (options_.quiet) spdlog::set_level(spdlog::level::err);
    const Status status = analyze::RunAnalyze(report_paths_, options_);
    if (!status.ok()) {
      spdlog::error("error: {}", OneLine(status.message()));
      return 1;
    }
    return 0;
  }

 private:
  analyze::AnalyzeOptions options_;
  std::vector<std::string> report_paths_;
};

}  // namespace

std::unique_ptr<Command> MakeAnalyzeCommand() { return std::make_unique<AnalyzeCommand>(); }

}  // namespace prof::cli
