#include "cli/merge_command.h"

#include <spdlog/spdlog.h>

#include <string>

#include "common/one_line.h"
#include "merge/merge_runner.h"

namespace prof::cli {
namespace {

constexpr const char* kExamples = R"(
Examples:
  prof merge -o all.sqlite rank0.sqlite rank1.sqlite
      One report with the processes of both ranks; prof stats and prof analyze read it as any
      report (prof analyze -r nccl_overlap compares the ranks).
  torchrun --nproc_per_node=2 prof profile -o rank%q{RANK} python train.py
  prof merge -o all rank0.sqlite rank1.sqlite
      Profile each rank into its own report, then merge them.)";

std::string Offsets(const merge::MergeOutcome& outcome) {
  std::string text;
  for (int64_t offset : outcome.offsets_ns) {
    text += (text.empty() ? "" : ", ") + std::to_string(offset);
  }
  return text;
}

std::string Names(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

class MergeCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub = app.add_subcommand(
        "merge", "Merge reports (e.g. one per rank) into one report on one time base.");
    sub->footer(kExamples);
    sub->add_option("-o,--output", options_.output,
                    "The merged report (.sqlite is appended when missing)")
        ->required();
    sub->add_option("-f,--force-overwrite", options_.force_overwrite,
                    "Replace an existing output file (true|false)")
        ->default_str("false");
    sub->add_flag("-q,--quiet", quiet_, "Print only errors");
    sub->add_option("reports", options_.inputs,
                    "The reports to merge: .sqlite files from prof profile or nsys export")
        ->required();
    return sub;
  }

  int Run() override {
    if (quiet_) spdlog::set_level(spdlog::level::err);
    merge::MergeOutcome outcome;
    if (Status status = merge::RunMerge(options_, &outcome); !status.ok()) {
      spdlog::error("error: {}", OneLine(status.message()));
      return 1;
    }
    spdlog::info(
        "aligned {} reports by their session start times in UTC (offsets {} ns): exact for "
        "reports of one host, as exact as the hosts' clocks agree across hosts",
        options_.inputs.size(), Offsets(outcome));
    if (!outcome.left_out_tables.empty()) {
      spdlog::info("left out tables prof cannot merge: {}", Names(outcome.left_out_tables));
    }
    spdlog::info("wrote {}", outcome.output_path);
    return 0;
  }

 private:
  merge::MergeOptions options_;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> MakeMergeCommand() { return std::make_unique<MergeCommand>(); }

}  // namespace prof::cli
