// One-pass duration statistics per group, for the summary reports (nvtx_sum, osrt_sum, ...).
//
// SQLite has no hash aggregation: `GROUP BY name` sorts every row first, and each of a summary's
// seven aggregates (sum, count, avg, median, min, max, stdev) is a separate call per row. On a
// report of millions of NVTX ranges that was most of `prof stats`'s time. These functions do the
// same work in one call per row, grouping in a hash table:
//
//   duration_groups(value, key1 [, key2 [, key3 [, key4]]])   aggregate: collects the non-NULL
//       values per distinct key tuple (keys compare as GROUP BY compares them: NULLs equal, by
//       type and value); rows whose value is NULL are skipped. Returns a BLOB of the groups and
//       their values (stats/duration_groups.h) that only the functions here and
//       duration_groups_parallel() (stats/parallel_groups.h) read.
//   duration_summary(groups)   table-valued: one row per group, in first-seen order, with columns
//       key1 .. key4 (NULL for keys not given), instances (count), total (sum: INTEGER when
//       every value of the group is an integer, else REAL), mean (REAL; total / instances),
//       middle (REAL median; mean of the two middle values for an even count), shortest and
//       longest (min and max, each typed as the value was), deviation (REAL sample standard
//       deviation, 0 for one value) — the same values as SQLite's sum/count/avg/min/max and
//       sql_statistics.h's median/stdev over `GROUP BY key1, key2, key3, key4` — and
//       group_values, the group's values as a BLOB for duration_groups_merge. Statistics are
//       computed only for the rows and columns a query reads.
//   duration_groups_merge(group_values, key1 [, ...])   aggregate: duration_groups over whole
//       groups: every value of each group_values BLOB joins the group of the new keys, so groups
//       can be renamed and merged after one scan (nvtx_range_summary names NVTX domains so).
//
// Use:  SELECT key1 AS nameId, total, ... FROM duration_summary(
//         (SELECT duration_groups(end - start, nameId) FROM OSRT_API WHERE eventClass = 27))
#pragma once

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

Status RegisterDurationSummary(storage::Database* db);

}  // namespace prof::stats
