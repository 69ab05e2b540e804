// duration_groups_parallel(table, sql [, slices]): the SQL function that spreads one summary
// report's scan over threads.
//
// A summary report's time is one pass over millions of rows (NVTX_EVENTS, OSRT_API, ...), and
// SQLite runs a query on one thread. This function splits `table`'s rowid range into slices, runs
// `sql` once per slice on its own read-only connection to the same file, each in its own thread,
// with the slice's first and last rowid bound to ?1 and ?2, and merges the duration_groups() BLOBs
// the runs return, in slice order (stats/duration_groups.h), into the one BLOB that a single run
// over all rows would return. `sql` is one of the reports' own statements, never user text:
//
//   duration_summary(duration_groups_parallel('OSRT_API',
//       'SELECT duration_groups(end - start, nameId) FROM OSRT_API
//        WHERE rowid BETWEEN ?1 AND ?2 AND eventClass = 27'))
//
// Without `slices` the count follows the table's size and the CPUs this process may run on; a
// small table is scanned by the calling connection itself. Each worker connection gets the SQL
// functions `setup` registers and a copy of the calling connection's TEMP schema (the reports'
// views, report_options and stand-in tables, with their rows), so `sql` may read those views.
#pragma once

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// Registers the SQL functions a worker connection needs (the reports' own functions).
using ConnectionSetup = Status (*)(storage::Database* db);

Status RegisterParallelGroups(storage::Database* db, ConnectionSetup setup);

}  // namespace prof::stats
