// The aggregate SQL functions nsys's reports use and SQLite lacks, registered on a connection:
//   median(x)  the middle non-NULL x; for an even count, the mean of the two middle values.
//   stdev(x)   the sample standard deviation of the non-NULL x (divides by n - 1); 0 for one value.
// Both return REAL, or NULL when there is no non-NULL x. Non-numeric x is read as SQLite converts
// it to REAL.
// It also replaces SQLite's round(x, digits) on the connection by one that rounds the exact binary
// value of x, exact halfway cases away from zero, as nsys's numbers show: round(169709.55, 1) is
// 169709.5 (the double is 169709.54999...), not SQLite 3.40's 169709.6; round(17428.25, 1) is
// 17428.3.
#pragma once

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

Status RegisterStatisticsFunctions(storage::Database* db);

}  // namespace prof::stats
