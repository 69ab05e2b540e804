// The rows `prof diff` prints: one per compared item, in CompareItems' order, as a
// stats::ResultTable so that stats' output formats render it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diff/item_comparison.h"
#include "stats/result_table.h"

namespace prof::diff {

// For people (column, table, csv, tsv, markdown): `Status`, `Kind`, `Base Inst`, `New Inst`,
// `Base Total (ns)`, `New Total (ns)`, `Base Med (ns)`, `New Med (ns)`, `Change (ns)`,
// `Change (%)`, `Noise (ns)`, `Name`. Time columns end in " (ns)" so that --timeunit converts
// them.
stats::ResultTable HumanDiffTable(const std::vector<ItemDiff>& diffs);

// For programs (json), keys that never change with options: `status`, `kind`, `name`,
// `compared` ("total" or "median": what the change is of), `base_instances`, `new_instances`,
// `base_total_ns`, `new_total_ns`, `base_median_ns`, `new_median_ns`, `change_ns`, `change_pct`,
// `noise_ns`. Times always in ns.
stats::ResultTable MachineDiffTable(const std::vector<ItemDiff>& diffs);

// "1 regressed, 0 uncounted, 0 noise, 2 improved, 5 unchanged, 1 new, 0 vanished (threshold 5%,
// <min_time>, waits uncounted)", where `min_time` is DescribeMinTime's text.
std::string DiffSummary(const std::vector<ItemDiff>& diffs, const GateOptions& gate,
                        std::string_view min_time);

}  // namespace prof::diff
