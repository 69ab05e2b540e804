// --timeunit: the unit of the time columns of a report. Reports compute in ns and name their time
// columns "<title> (ns)"; another unit divides those columns' values and renames the suffix, as
// nsys's --timeunit does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "stats/result_table.h"

namespace prof::stats {

struct TimeUnit {
  std::string_view name;    // as spelled on the command line: nsec, usec, msec, sec
  std::string_view suffix;  // column-name suffix: " (ns)", " (us)", " (ms)", " (s)"
  int64_t ns_per_unit = 1;
};

// Fails with the list of valid names when `name` is not one of them.
StatusOr<TimeUnit> ParseTimeUnit(std::string_view name);

// Converts every column whose name ends in " (ns)" to `unit`. Values become REAL ns/ns_per_unit,
// exact to the ns for integers and to 0.1 ns for REAL values (reports round those to 0.1 ns):
// 485565904 ns -> 485565.904 us. NULL and text cells are left alone. nsec changes nothing, so
// integers stay integers.
void ApplyTimeUnit(const TimeUnit& unit, ResultTable* table);

}  // namespace prof::stats
