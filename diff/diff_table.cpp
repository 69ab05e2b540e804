#include "diff/diff_table.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace prof::diff {
namespace {

using stats::Cell;

// Medians and percentages stay REAL (as the Med (ns) columns of nsys's reports), rounded to 0.1
// (a tiny decrease prints 0.0, not -0.0); NULL when there is none.
Cell Rounded(const std::optional<double>& value) {
  if (!value) return std::monostate{};
  const double rounded = std::round(*value * 10) / 10;
  return rounded == 0 ? 0.0 : rounded;
}

// Integral values (counts, integer ns and medians of an odd number of them) as integers, others
// rounded to 0.1 as nsys's reports print REAL values.
Cell Number(double value) {
  if (value == std::trunc(value) && std::fabs(value) < 9e15) return static_cast<int64_t>(value);
  return Rounded(value);
}

Cell Text(std::string_view text) { return std::string(text); }

}  // namespace

stats::ResultTable HumanDiffTable(const std::vector<ItemDiff>& diffs) {
  stats::ResultTable table;
  table.columns = {"Status",          "Kind",           "Base Inst",     "New Inst",
                   "Base Total (ns)", "New Total (ns)", "Base Med (ns)", "New Med (ns)",
                   "Change (ns)",     "Change (%)",     "Noise (ns)",    "Name"};
  for (const ItemDiff& diff : diffs) {
    table.rows.push_back({Text(VerdictName(diff.verdict)), Text(ItemKindName(diff.key.kind)),
                          Number(diff.base.instances), Number(diff.candidate.instances),
                          Number(diff.base.total_ns), Number(diff.candidate.total_ns),
                          Rounded(diff.base.median_ns), Rounded(diff.candidate.median_ns),
                          Number(diff.change_ns), Rounded(diff.change_pct), Number(diff.noise_ns),
                          diff.key.name});
  }
  return table;
}

stats::ResultTable MachineDiffTable(const std::vector<ItemDiff>& diffs) {
  stats::ResultTable table;
  table.columns = {"status",         "kind",          "name",          "compared",
                   "base_instances", "new_instances", "base_total_ns", "new_total_ns",
                   "base_median_ns", "new_median_ns", "change_ns",     "change_pct",
                   "noise_ns"};
  for (const ItemDiff& diff : diffs) {
    table.rows.push_back({Text(VerdictName(diff.verdict)), Text(ItemKindName(diff.key.kind)),
                          diff.key.name, Text(ComparesMedian(diff.key.kind) ? "median" : "total"),
                          Number(diff.base.instances), Number(diff.candidate.instances),
                          Number(diff.base.total_ns), Number(diff.candidate.total_ns),
                          Rounded(diff.base.median_ns), Rounded(diff.candidate.median_ns),
                          Number(diff.change_ns), Rounded(diff.change_pct), Number(diff.noise_ns)});
  }
  return table;
}

std::string DiffSummary(const std::vector<ItemDiff>& diffs, const GateOptions& gate,
                        std::string_view min_time) {
  std::array<int, 7> counts = {};
  for (const ItemDiff& diff : diffs) ++counts[static_cast<size_t>(diff.verdict)];
  std::string summary;
  for (size_t verdict = 0; verdict < counts.size(); ++verdict) {
    summary += (summary.empty() ? "" : ", ") + std::to_string(counts[verdict]) + " " +
               std::string(VerdictName(static_cast<Verdict>(verdict)));
  }
  return summary + fmt::format(" (threshold {:g}%, {}, waits {})", gate.threshold_pct, min_time,
                               gate.count_waits ? "counted" : "uncounted");
}

}  // namespace prof::diff
