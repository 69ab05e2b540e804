// The query behind each kind of diff item: diff/queries/<kind>.sql plus the tables and views it
// reads. Every query returns one row per item with the columns
//   name TEXT, instances INTEGER, total INTEGER (ns), median REAL (ns, or NULL),
// and reads its options from two TEMP tables that report_items fills before it runs:
// report_options(name) (the kernel name choice of stats/views/cuda_kernels.sql: base, mangled)
// and diff_options(name, value) (kernel_key, range).
#pragma once

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
  // Views of stats/views/ created before the query runs.
  std::vector<std::string_view> views;
  std::string_view sql;
};

// Every kind's query, in ItemKind order.
const std::vector<ItemQuery>& AllItemQueries();

}  // namespace prof::diff
