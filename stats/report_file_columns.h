// The leading columns `prof stats` adds when it runs a report over several report files at once:
// `File` (the file's base name, as nsys's multi-report recipes name their inputs) and, when any
// of the files carries a rank (report_rank.h), `Rank`. The rows of all files then form one table
// per report, file after file in the order given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "stats/result_table.h"

namespace prof::stats {

// What identifies one input file in the combined table.
struct ReportFileLabel {
  std::string file;             // base name: "/runs/rank0.sqlite" -> "rank0.sqlite"
  std::optional<int64_t> rank;  // the report's rank, when it has one
};

// The label of `path`, with `rank`.
ReportFileLabel MakeReportFileLabel(const std::string& path, std::optional<int64_t> rank);

// How the across-ranks summary (rank_summary.h) names the file: its rank, else its base name.
std::string RankName(const ReportFileLabel& label);

// Appends the rows of `table` (one file's result) to `combined`, each preceded by the file's
// cells: File, and Rank (NULL without a rank) when `with_rank`. The first table appended sets
// `combined`'s columns; every later one must have the same columns (the same report's SQL).
void AppendLabeledRows(const ReportFileLabel& label, bool with_rank, const ResultTable& table,
                       ResultTable* combined);

}  // namespace prof::stats
