#include "stats/time_unit.h"

#include <array>
#include <cmath>

#include "common/named_entries.h"

namespace prof::stats {
namespace {

constexpr std::string_view kNanosecondSuffix = " (ns)";

constexpr std::array<TimeUnit, 4> kTimeUnits = {{
    {"nsec", " (ns)", 1},
    {"usec", " (us)", 1000},
    {"msec", " (ms)", 1000 * 1000},
    {"sec", " (s)", 1000 * 1000 * 1000},
}};

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// A converted cell: ns divided by the unit, as REAL. One division of a whole number (of ns, or of
// tenths of ns for REAL values) yields the double nearest to the exact decimal, so it prints
// without binary noise (539907026.3 ns -> 539907.0263 us, not 539907.0262999999).
Cell Scaled(const Cell& cell, double ns_per_unit) {
  if (const auto* value = std::get_if<int64_t>(&cell))
    return static_cast<double>(*value) / ns_per_unit;
  if (const auto* value = std::get_if<double>(&cell))
    return std::round(*value * 10) / (10 * ns_per_unit);
  return cell;
}

}  // namespace

StatusOr<TimeUnit> ParseTimeUnit(std::string_view name) {
  const TimeUnit* unit = FindByName(kTimeUnits, name);
  if (unit == nullptr) {
    return Status::Error("unknown time unit '" + std::string(name) +
                         "'; valid units: " + JoinNames(kTimeUnits));
  }
  return *unit;
}

void ApplyTimeUnit(const TimeUnit& unit, ResultTable* table) {
  if (unit.ns_per_unit == 1) return;
  for (size_t column = 0; column < table->columns.size(); ++column) {
    std::string& name = table->columns[column];
    if (!EndsWith(name, kNanosecondSuffix)) continue;
    name.replace(name.size() - kNanosecondSuffix.size(), kNanosecondSuffix.size(), unit.suffix);
    for (auto& row : table->rows) {
      row[column] = Scaled(row[column], static_cast<double>(unit.ns_per_unit));
    }
  }
}

}  // namespace prof::stats
