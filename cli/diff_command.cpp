#include "cli/diff_command.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "common/one_line.h"
#include "diff/diff_formats.h"
#include "diff/diff_runner.h"

namespace prof::cli {
namespace {

constexpr int kExitNoRegression = 0;
constexpr int kExitRegression = 1;
constexpr int kExitError = 2;

constexpr const char* kExamples = R"(
Exit status: 0 nothing regressed, 1 something regressed (listed first), 2 error.

Examples:
  prof diff base.sqlite new.sqlite
      Compare two reports; fail when an item's time grew by more than 5%, and by more than 5 ms
      and 1% of the base run. Waits (poll, sleeps, lock and condition waits, joins...) are
      listed but not counted.
  prof diff --threshold 10 --min-time 100000 --range train_step base.sqlite new.sqlite
      Ignore changes below 10%, or below 0.1 ms and 1% of the base run; also compare the median
      train_step range.
  prof diff --min-time 0 --min-share 0 --count-waits base.sqlite new.sqlite
      Fail on any change above 5%, waits included.
  prof diff --base b1.sqlite b2.sqlite b3.sqlite --new n1.sqlite n2.sqlite n3.sqlite
      Three runs a side: changes within the run-to-run spread are reported as noise.
  prof diff -f markdown -o diff.md base.sqlite new.sqlite
      Write a markdown table for a pull-request comment.)";

// The options of one `prof diff` run.
struct DiffArguments {
  diff::DiffOptions options;
  std::vector<std::string> positional;
  std::vector<std::string> base;
  std::vector<std::string> candidate;
  bool quiet = false;
};

void DeclareOptions(CLI::App& parser, DiffArguments* args) {
  diff::DiffOptions& options = args->options;
  parser.footer(kExamples);
  parser.add_option("reports", args->positional, "BASE NEW: the two reports to compare");
  parser.add_option("--base", args->base, "Base reports (several: runs of the same build)");
  parser.add_option("--new", args->candidate, "New reports (several: runs of the same build)");
  parser
      .add_option("--threshold", options.threshold_pct, "Regressed: grew by more than PCT percent")
      ->default_str("5");
  parser.add_option("--min-time", options.min_time.ns, "Regressed: also grew by more than NS ns")
      ->default_str("5000000");
  parser
      .add_option("--min-share", options.min_time.run_pct,
                  "Regressed: also grew by more than PCT percent of the base run's traced time")
      ->default_str("1");
  parser.add_flag("--count-waits", options.count_waits,
                  "Let grown waits (poll, sleeps, lock and condition waits, joins...), and ranges "
                  "and calls grown by waiting in them or for a CPU, fail too");
  parser.add_option("--range", options.items.range,
                    "Also compare the median instance of this NVTX range ([domain:]text)");
  parser
      .add_option("--kernel-key", options.items.kernel_key,
                  "Kernels are keyed by: name, or name+grid+block")
      ->default_str("name");
  parser
      .add_option("--kernel-name", options.items.kernel_name,
                  "Kernel names: demangled, base or mangled")
      ->default_str("demangled");
  parser.add_option("-f,--format", options.format, diff::DiffFormatNames())->default_str("column");
  parser.add_option("-o,--output", options.output, "'-' for stdout, or the file to write")
      ->default_str("-");
  parser.add_flag("--force-overwrite", options.force_overwrite,
                  "Replace an existing output file (--force-overwrite=false to refuse)");
  parser
      .add_option("--timeunit", options.time_unit,
                  "Unit of the time columns (not json's): nsec, usec, msec, sec")
      ->default_str("nsec");
  parser.add_flag("-q,--quiet", args->quiet, "Print only errors (no summary line)");
}

// The reports come as BASE NEW or as --base ... --new ..., never both.
Status AssignReports(DiffArguments* args) {
  const bool listed = !args->base.empty() || !args->candidate.empty();
  if (listed && !args->positional.empty()) {
    return Status::Error("give the reports either as BASE NEW or with --base and --new, not both");
  }
  if (listed) {
    if (args->base.empty() || args->candidate.empty()) {
      return Status::Error("--base and --new go together: both need at least one report");
    }
    args->options.base_reports = args->base;
    args->options.new_reports = args->candidate;
    return Status::Ok();
  }
  if (args->positional.size() != 2) {
    return Status::Error("expected two reports, BASE and NEW (or --base ... --new ...), got " +
                         std::to_string(args->positional.size()));
  }
  args->options.base_reports = {args->positional[0]};
  args->options.new_reports = {args->positional[1]};
  return Status::Ok();
}

int Fail(const std::string& message) {
  spdlog::error("error: {}", OneLine(message));
  return kExitError;
}

class DiffCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub = app.add_subcommand(
        "diff", "Compare reports and fail on a performance regression (exit 1; 2 on error).");
    DeclareOptions(*sub, &args_);
    return sub;
  }

  // An error, which CI must tell apart from a regression's 1.
  int UsageErrorExitCode() const override { return kExitError; }

  int Run() override {
    DiffArguments& args = args_;
    if (args.quiet) spdlog::set_level(spdlog::level::err);
    if (Status status = AssignReports(&args); !status.ok()) return Fail(status.message());

    diff::DiffOutcome outcome;
    if (Status status = diff::RunDiff(args.options, &outcome); !status.ok()) {
      return Fail(status.message());
    }
    spdlog::info("{}", outcome.summary);
    return outcome.regressed > 0 ? kExitRegression : kExitNoRegression;
  }

 private:
  DiffArguments args_;
};

}  // namespace

std::unique_ptr<Command> MakeDiffCommand() { return std::make_unique<DiffCommand>(); }

}  // namespace prof::cli
