#include "diff/diff_runner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "diff/diff_formats.h"
#include "diff/diff_table.h"
#include "stats/output_files.h"
#include "stats/time_unit.h"

namespace prof::diff {
namespace {

constexpr std::array<std::string_view, 2> kKernelKeys = {"name", "name+grid+block"};
constexpr std::array<std::string_view, 3> kKernelNames = {"demangled", "base", "mangled"};

template <size_t N>
Status CheckChoice(std::string_view option, const std::string& value,
                   const std::array<std::string_view, N>& choices) {
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return Status::Ok();
  std::string valid;
  for (std::string_view choice : choices)
    valid += (valid.empty() ? "" : ", ") + std::string(choice);
  return Status::Error("unknown " + std::string(option) + " '" + value + "'; valid: " + valid);
}

// Also parses the time unit, into `unit`.
Status CheckOptions(const DiffOptions& options, stats::TimeUnit* unit) {
  if (options.base_reports.empty() || options.new_reports.empty()) {
    return Status::Error("prof diff needs at least one base and one new report");
  }
  if (FindDiffFormat(options.format) == nullptr) {
    return Status::Error("unknown format '" + options.format + "'; valid: " + DiffFormatNames());
  }
  PROF_ASSIGN_OR_RETURN(*unit, stats::ParseTimeUnit(options.time_unit));
  if (!std::isfinite(options.threshold_pct) || options.threshold_pct < 0) {
    return Status::Error("--threshold must be a percentage of 0 or more");
  }
  if (options.min_time.ns < 0) return Status::Error("--min-time must be 0 ns or more");
  if (!std::isfinite(options.min_time.run_pct) || options.min_time.run_pct < 0) {
    return Status::Error("--min-share must be a percentage of 0 or more");
  }
  if (options.items.range && options.items.range->empty()) {
    return Status::Error("--range needs an NVTX range name");
  }
  PROF_RETURN_IF_ERROR(CheckChoice("--kernel-key", options.items.kernel_key, kKernelKeys));
  return CheckChoice("--kernel-name", options.items.kernel_name, kKernelNames);
}

Status LoadSide(const std::vector<std::string>& paths, const ItemOptions& options,
                std::vector<LoadedReport>* side) {
  for (const std::string& path : paths) {
    PROF_RETURN_IF_ERROR(LoadReport(path, options, &side->emplace_back()));
  }
  return Status::Ok();
}

std::vector<ReportItems> ItemsOf(std::vector<LoadedReport>&& side) {
  std::vector<ReportItems> items;
  for (LoadedReport& report : side) items.push_back(std::move(report.items));
  return items;
}

// The median traced span of a side's reports (for an even count, the mean of the middle two).
int64_t MedianRun(const std::vector<LoadedReport>& side) {
  std::vector<int64_t> runs_ns;
  for (const LoadedReport& report : side) runs_ns.push_back(report.run_ns);
  std::sort(runs_ns.begin(), runs_ns.end());
  const size_t middle = runs_ns.size() / 2;
  if (runs_ns.size() % 2 == 1) return runs_ns[middle];
  return (runs_ns[middle - 1] + runs_ns[middle]) / 2;
}

// An empty comparison would pass the gate without checking anything (a run that traced nothing,
// a misspelt --range), so both are errors.
Status CheckCompared(const std::vector<ItemDiff>& diffs, const DiffOptions& options) {
  if (diffs.empty()) {
    return Status::Error("nothing to compare: the reports have no CUDA, NVTX or OS runtime data");
  }
  const bool has_range = std::any_of(diffs.begin(), diffs.end(), [](const ItemDiff& diff) {
    return diff.key.kind == ItemKind::kRange;
  });
  if (options.items.range && !has_range) {
    return Status::Error("no report has an NVTX range named '" + *options.items.range + "'");
  }
  return Status::Ok();
}

std::string Render(const std::vector<ItemDiff>& diffs, const DiffOptions& options,
                   const stats::TimeUnit& unit, const std::string& summary) {
  const DiffFormat& format = *FindDiffFormat(options.format);
  if (format.machine_keys) return format.render(MachineDiffTable(diffs));
  stats::ResultTable table = HumanDiffTable(diffs);
  stats::ApplyTimeUnit(unit, &table);
  const std::string lead = format.leads_with_summary ? "**prof diff:** " + summary + "\n\n" : "";
  return lead + format.render(table);
}

}  // namespace

Status RunDiff(const DiffOptions& options, DiffOutcome* outcome) {
  stats::TimeUnit unit;
  PROF_RETURN_IF_ERROR(CheckOptions(options, &unit));
  if (options.output != "-") {
    std::vector<std::string> inputs = options.base_reports;
    inputs.insert(inputs.end(), options.new_reports.begin(), options.new_reports.end());
    PROF_RETURN_IF_ERROR(stats::CheckNotAnInput(options.output, inputs));
    PROF_RETURN_IF_ERROR(stats::CheckOutputFile(options.output, options.force_overwrite));
  }
  std::vector<LoadedReport> base, candidate;
  PROF_RETURN_IF_ERROR(LoadSide(options.base_reports, options.items, &base));
  PROF_RETURN_IF_ERROR(LoadSide(options.new_reports, options.items, &candidate));
  // The base run is the reference: a regression that lengthens the new run must not raise the bar.
  const int64_t base_run_ns = MedianRun(base);
  const GateOptions gate = {options.threshold_pct, MinTimeNs(options.min_time, base_run_ns),
                            options.count_waits};
  const std::vector<ItemDiff> diffs =
      CompareItems(ItemsOf(std::move(base)), ItemsOf(std::move(candidate)), gate);
  PROF_RETURN_IF_ERROR(CheckCompared(diffs, options));

  outcome->summary = DiffSummary(diffs, gate, DescribeMinTime(options.min_time, base_run_ns));
  outcome->regressed =
      static_cast<int>(std::count_if(diffs.begin(), diffs.end(), [](const ItemDiff& diff) {
        return diff.verdict == Verdict::kRegressed;
      }));
  const std::string text = Render(diffs, options, unit, outcome->summary);
  if (options.output != "-") return stats::WriteOutputFile(options.output, text);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return Status::Ok();
}

}  // namespace prof::diff
