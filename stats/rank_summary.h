// The across-ranks summary that `prof stats` and `prof analyze` print after a report's per-file
// table when they read several reports (one per rank), in the shape of nsys's multi-report
// recipes: per key, the spread over the ranks and the ranks that stand out. The Python driver
// (python/prof_recipes/rank_summary.py) applies the same rule to the same per-file tables; a test
// checks that both give equal numbers, so a change here goes there too.
//
// The rule:
// - Value: the table's first column named `Total Time`, `NCCL Time` or `Duration` (any unit
//   suffix, "Total Time (ns)"). A table without one gets no summary.
// - Key: the cells of the columns that hold no number in any file's rows (kernel, range or
//   function names, styles); a table without such columns has one key. A file's rows of one key
//   are summed (a rule's gaps add up to the rank's gap time).
// - Per key, over the files that have it: `Ranks` (how many), `Min`, `Med` (the median; the mean
//   of the two middle values for an even count), `Max`, `Max Rank` (the first file with the
//   maximum) and `Outlier Ranks`: files whose value is further from the median than both
//   3 × 1.4826 × MAD (MAD: the median of the absolute deviations from the median; 1.4826 × MAD
//   estimates the standard deviation of normal data, robustly against the outliers themselves)
//   and 5 % of the median (ranks that agree to a few per mille have a tiny MAD; noise is no
//   outlier).
// - A file is named by its rank when it has one (report_rank.h), else by its base name. Keys are
//   ordered by median, largest first, ties in order of first appearance.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stats/result_table.h"

namespace prof::stats {

// One file's result table for one report, with the name the summary gives that file.
struct RankTable {
  std::string name;
  const ResultTable* table = nullptr;
};

// nullopt when the tables have no value column (or there are no tables).
std::optional<ResultTable> SummarizeAcrossRanks(const std::vector<RankTable>& tables);

}  // namespace prof::stats
