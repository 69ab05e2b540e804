// The regression gate of `prof diff`: compares the items of the base reports with those of the
// new reports and gives each item a verdict. Pure computation, no I/O.
//
// Each side is one or more reports of the same workload. Per item and side:
//   instances, total, median  the median over the side's reports of that report's instances,
//                             total and median (a report without the item counts 0 instances and
//                             0 ns; its median is left out);
//   compared                  the side's median, for kind range (ComparesMedian), else its total;
//   spread                    the largest minus the smallest per-report compared value: the
//                             run-to-run noise of that side (0 with one report).
// change = new compared - base compared, change % = 100 * change / base compared (none when the
// base is 0). A change is significant when |change %| is larger than threshold_pct (any change
// when the base is 0) and its time in the run is larger than min_time_ns: |change| for a total,
// |change| x the base instances for a range compared on its median. Then:
//   regressed  change > 0 and larger than the spread of each side, and not noise;
//   uncounted  would be regressed, but count_waits is off and the item is a wait (waits.h) or
//              grew by waiting: its compared value less the time its threads waited inside it,
//              in wait calls or preempted (ItemStats::excluding_waits_ns), did not grow
//              significantly;
//   improved   change < 0, |change| larger than the spread of each side, and not noise;
//   noise      |change| within the larger spread, or a total that changed through a few
//              instances only: its typical total (instances x median) did not change
//              significantly in the same direction (one call the scheduler delayed by
//              milliseconds);
//   unchanged  not significant.
// Items in no base report are new, items in no new report vanished; neither fails the gate (their
// time shows in the gpu_busy and gpu_span totals).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "diff/diff_item.h"

namespace prof::diff {

struct GateOptions {
  double threshold_pct = 5;
  int64_t min_time_ns = 0;  // resolved from --min-time (min_time.h)
  bool count_waits = false;
};

// In the order the output lists them.
enum class Verdict { kRegressed, kUncounted, kNoise, kImproved, kUnchanged, kNew, kVanished };

// regressed, uncounted, noise, improved, unchanged, new, vanished.
std::string_view VerdictName(Verdict verdict);

// One side's view of an item; see the header comment.
struct SideSummary {
  double instances = 0;
  double total_ns = 0;
  std::optional<double> median_ns;
  double compared_ns = 0;
  double spread_ns = 0;
  // The median over the side's reports of ItemStats::excluding_waits_ns (a report without the
  // item counts 0); none when no report has it.
  std::optional<double> excluding_waits_ns;
};

struct ItemDiff {
  ItemKey key;
  Verdict verdict = Verdict::kUnchanged;
  SideSummary base;
  SideSummary candidate;  // the new reports' side
  double change_ns = 0;
  std::optional<double> change_pct;
  double noise_ns = 0;  // the larger spread of the two sides
};

// Every item of either side, by verdict, then largest |change| first, then kind and name.
// `base` and `candidate` each hold at least one report.
std::vector<ItemDiff> CompareItems(const std::vector<ReportItems>& base,
                                   const std::vector<ReportItems>& candidate,
                                   const GateOptions& gate);

}  // namespace prof::diff
