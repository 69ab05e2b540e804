// The query behind each kind of diff item: diff/queries/<kind>.sql plus the tables and views it
// reads. Every query returns one row per item with the columns
//   name TEXT, instances INTEGER, total INTEGER (ns), median REAL (ns, or NULL),
// and, for NVTX ranges and OS runtime calls, excluding_waits (ItemStats::excluding_waits_ns). It
// reads its options from TEMP tables that report_items fills before it runs: report_options(name)
// (the kernel name choice of stats/views/cuda_kernels.sql: base, mangled), diff_options(name,
// value) (kernel_key, range) and diff_wait_functions(name) (waits.h).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "diff/diff_item.h"

namespace prof::diff {

struct ItemQuery {
  ItemKind kind;
  // Tables the query needs; a report without one has no items of this kind.
  std::vector<std::string_view> required_tables;
  // Tables of which the query needs one; each missing one (nsys leaves empty tables out of its
  // exports) is stood in for by an empty TEMP table (stats::StandInSql).
  std::vector<std::string_view> any_of_tables;
  // Tables stood in for when missing without being needed.
  std::vector<std::string_view> optional_tables;
  // Views created before the query runs: diff/queries/views/<view>.sql, else stats/views/.
  std::vector<std::string_view> views;
  std::string_view sql;
};

// Every kind's query, in ItemKind order.
const std::vector<ItemQuery>& AllItemQueries();

// The SQL of diff/queries/views/<view>.sql; none for a view that is not diff's own.
std::optional<std::string_view> DiffViewSql(std::string_view view);

}  // namespace prof::diff
