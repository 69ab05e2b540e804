// The aggregate SQL functions nsys's reports use and SQLite lacks, registered on a connection:
//   median(x)  the middle non-NULL x; for an even count, the mean of the two middle values.
//   stdev(x)   the sample standard deviation of the non-NULL x (divides by n - 1); 0 for one value.
// Both return REAL, or NULL when there is no non-NULL x. Non-numeric x is read as SQLite converts
// it to REAL.
#pragma once

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

Status RegisterStatisticsFunctions(storage::Database* db);

}  // namespace prof::stats
