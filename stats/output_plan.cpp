#include "stats/output_plan.h"

#include <algorithm>

#include "common/split.h"

namespace prof::stats {
namespace {

bool IsDefaultFormat(const std::string& spec) { return spec.empty() || spec == "."; }

// The format of `spec` for `target`; `spec` was checked by ParseOutputPlan.
FormatChoice ChooseFormat(const std::string& spec, const OutputTarget& target) {
  return *ParseFormat(IsDefaultFormat(spec) ? target.DefaultFormat() : std::string_view(spec));
}

template <typename Item>
const Item& ItemOrLast(const std::vector<Item>& items, size_t i) {
  return items[std::min(i, items.size() - 1)];
}

}  // namespace

StatusOr<OutputPlan> ParseOutputPlan(const OutputOptions& options, const std::string& report_path) {
  OutputPlan plan;
  plan.formats = Split(options.format, ',');
  for (const std::string& spec : plan.formats) {
    if (IsDefaultFormat(spec)) continue;
    PROF_RETURN_IF_ERROR(ParseFormat(spec));
  }
  for (const std::string& spec : Split(options.output, ',')) {
    PROF_ASSIGN_OR_RETURN(OutputTarget target, ParseOutputTarget(spec, report_path));
    plan.targets.push_back(std::move(target));
  }
  return plan;
}

std::vector<ReportRun> PlanRuns(const OutputPlan& plan, size_t report_count) {
  std::vector<ReportRun> runs;
  if (report_count == 0) return runs;
  const size_t count = std::max({report_count, plan.formats.size(), plan.targets.size()});
  for (size_t i = 0; i < count; ++i) {
    ReportRun run;
    run.report = std::min(i, report_count - 1);
    run.target = ItemOrLast(plan.targets, i);
    run.format = ChooseFormat(ItemOrLast(plan.formats, i), run.target);
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace prof::stats
