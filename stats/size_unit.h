// Size columns. Reports that print memory sizes compute them in MB (10^6 bytes) as REAL and name
// those columns "<title> (MB)"; nsys prints them with exactly three decimals ("335.544", "0.000"),
// whatever --timeunit says, and so does prof once ApplySizeUnit ran.
#pragma once

#include "stats/result_table.h"

namespace prof::stats {

// Every number in a column whose name ends in " (MB)" becomes a FixedDecimal of 3 places; NULL
// and text cells are left alone.
void ApplySizeUnit(ResultTable* table);

}  // namespace prof::stats
