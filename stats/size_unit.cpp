#include "stats/size_unit.h"

#include <string_view>

namespace prof::stats {
namespace {

constexpr std::string_view kMegabyteSuffix = " (MB)";
constexpr int kMegabytePlaces = 3;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

Cell Fixed(const Cell& cell) {
  if (const auto* value = std::get_if<int64_t>(&cell)) {
    return FixedDecimal{static_cast<double>(*value), kMegabytePlaces};
  }
  if (const auto* value = std::get_if<double>(&cell)) return FixedDecimal{*value, kMegabytePlaces};
  return cell;
}

}  // namespace

void ApplySizeUnit(ResultTable* table) {
  for (size_t column = 0; column < table->columns.size(); ++column) {
    if (!EndsWith(table->columns[column], kMegabyteSuffix)) continue;
    for (auto& row : table->rows) row[column] = Fixed(row[column]);
  }
}

}  // namespace prof::stats
