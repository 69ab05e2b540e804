#include "diff/item_comparison.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <tuple>

#include "diff/waits.h"

namespace prof::diff {
namespace {

// The middle value; for an even count, the mean of the two middle ones. `values` is not empty.
double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  if (values.size() % 2 == 1) return values[middle];
  return (values[middle - 1] + values[middle]) / 2;
}

bool InAnyReport(const std::vector<ReportItems>& reports, const ItemKey& key) {
  return std::any_of(reports.begin(), reports.end(),
                     [&](const ReportItems& items) { return items.count(key) > 0; });
}

SideSummary Summarize(const std::vector<ReportItems>& reports, const ItemKey& key) {
  std::vector<double> instances, totals, medians, compared, excluding_waits;
  bool waits_known = false;
  for (const ReportItems& items : reports) {
    const auto found = items.find(key);
    const ItemStats stats = found == items.end() ? ItemStats{} : found->second;
    instances.push_back(static_cast<double>(stats.instances));
    totals.push_back(static_cast<double>(stats.total_ns));
    if (stats.median_ns) medians.push_back(*stats.median_ns);
    compared.push_back(ComparesMedian(key.kind) ? stats.median_ns.value_or(0)
                                                : static_cast<double>(stats.total_ns));
    excluding_waits.push_back(stats.excluding_waits_ns.value_or(0));
    waits_known = waits_known || stats.excluding_waits_ns.has_value();
  }
  SideSummary side;
  side.instances = Median(instances);
  side.total_ns = Median(totals);
  if (!medians.empty()) side.median_ns = Median(medians);
  side.compared_ns = Median(compared);
  const auto [low, high] = std::minmax_element(compared.begin(), compared.end());
  side.spread_ns = *high - *low;
  if (waits_known) side.excluding_waits_ns = Median(excluding_waits);
  return side;
}

// Whether `change` of a value that was `base` passes the threshold, and its time in the run
// (`change` x `weight`) passes min-time.
bool Significant(double change, double base, double weight, const GateOptions& gate) {
  const double magnitude = std::fabs(change);
  const bool beyond_threshold =
      base != 0 ? 100 * magnitude / std::fabs(base) > gate.threshold_pct : magnitude > 0;
  return beyond_threshold && magnitude * weight > static_cast<double>(gate.min_time_ns);
}

// A total that changed while its typical total (instances x median) did not, as much and the same
// way: the change is in a few instances, as when the scheduler delays one call by milliseconds on
// a busy machine. A slower build slows its typical instance or runs more of them.
bool CarriedByFewInstances(const ItemDiff& diff, const GateOptions& gate) {
  if (ComparesMedian(diff.key.kind) || !diff.base.median_ns || !diff.candidate.median_ns) {
    return false;
  }
  const double base_typical = diff.base.instances * *diff.base.median_ns;
  const double typical_change = diff.candidate.instances * *diff.candidate.median_ns - base_typical;
  const bool same_way = typical_change != 0 && (typical_change > 0) == (diff.change_ns > 0);
  return !same_way || !Significant(typical_change, base_typical, 1, gate);
}

// An item whose growth is time its threads waited inside it: in wait calls (the loader it waits
// for got slower, a wake-up came late) or for a CPU (other work preempted it), while the rest of
// its time did not grow significantly. That rest is its own work; what it waited for is the
// machine's load or has items of its own.
bool GrewByWaiting(const ItemDiff& diff, double weight, const GateOptions& gate) {
  if (!diff.base.excluding_waits_ns || !diff.candidate.excluding_waits_ns) return false;
  const double base = *diff.base.excluding_waits_ns;
  const double change = *diff.candidate.excluding_waits_ns - base;
  return change <= 0 || !Significant(change, base, weight, gate);
}

Verdict Judge(const ItemDiff& diff, const GateOptions& gate) {
  // A range's change is per instance; in the run it happens once per base instance.
  const double weight = ComparesMedian(diff.key.kind) ? std::max(diff.base.instances, 1.0) : 1;
  if (!Significant(diff.change_ns, diff.base.compared_ns, weight, gate)) {
    return Verdict::kUnchanged;
  }
  if (std::fabs(diff.change_ns) <= diff.noise_ns || CarriedByFewInstances(diff, gate)) {
    return Verdict::kNoise;
  }
  if (diff.change_ns < 0) return Verdict::kImproved;
  const bool waited = IsWait(diff.key) || GrewByWaiting(diff, weight, gate);
  return waited && !gate.count_waits ? Verdict::kUncounted : Verdict::kRegressed;
}

ItemDiff Compare(const std::vector<ReportItems>& base, const std::vector<ReportItems>& candidate,
                 const ItemKey& key, const GateOptions& gate) {
  ItemDiff diff;
  diff.key = key;
  diff.base = Summarize(base, key);
  diff.candidate = Summarize(candidate, key);
  diff.change_ns = diff.candidate.compared_ns - diff.base.compared_ns;
  if (diff.base.compared_ns != 0) diff.change_pct = 100 * diff.change_ns / diff.base.compared_ns;
  diff.noise_ns = std::max(diff.base.spread_ns, diff.candidate.spread_ns);
  if (!InAnyReport(base, key)) {
    diff.verdict = Verdict::kNew;
  } else if (!InAnyReport(candidate, key)) {
    diff.verdict = Verdict::kVanished;
  } else {
    diff.verdict = Judge(diff, gate);
  }
  return diff;
}

bool ListedBefore(const ItemDiff& a, const ItemDiff& b) {
  return std::make_tuple(a.verdict, -std::fabs(a.change_ns), a.key) <
         std::make_tuple(b.verdict, -std::fabs(b.change_ns), b.key);
}

}  // namespace

std::string_view VerdictName(Verdict verdict) {
  // In Verdict order.
  constexpr std::array<std::string_view, 7> kNames = {
      "regressed", "uncounted", "noise", "improved", "unchanged", "new", "vanished"};
  return kNames[static_cast<size_t>(verdict)];
}

std::vector<ItemDiff> CompareItems(const std::vector<ReportItems>& base,
                                   const std::vector<ReportItems>& candidate,
                                   const GateOptions& gate) {
  std::set<ItemKey> keys;
  for (const auto* side : {&base, &candidate}) {
    for (const ReportItems& items : *side) {
      for (const auto& entry : items) keys.insert(entry.first);
    }
  }
  std::vector<ItemDiff> diffs;
  for (const ItemKey& key : keys) diffs.push_back(Compare(base, candidate, key, gate));
  std::sort(diffs.begin(), diffs.end(), ListedBefore);
  return diffs;
}

}  // namespace prof::diff
