#include "stats/rank_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "stats/cell_text.h"

namespace prof::stats {
namespace {

constexpr const char* kValueNames[] = {"Total Time", "NCCL Time", "Duration"};
// Deviations beyond this many (robust) standard deviations mark an outlier rank.
constexpr double kOutlierDeviations = 3.0;
// Scales a MAD to the standard deviation it estimates for normally distributed values.
constexpr double kMadToDeviation = 1.4826;
// Ranks that agree closely have a tiny MAD; a rank must also be this far (relative to the median)
// from the median to stand out, so that noise of a few per mille is not called an outlier.
constexpr double kMinOutlierShare = 0.05;

// "Total Time (ns)" -> "Total Time".
std::string WithoutUnit(const std::string& column) {
  const size_t unit = column.rfind(" (");
  return unit == std::string::npos ? column : column.substr(0, unit);
}

std::optional<size_t> ValueColumn(const std::vector<std::string>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const std::string name = WithoutUnit(columns[i]);
    for (const char* value_name : kValueNames) {
      if (name == value_name) return i;
    }
  }
  return std::nullopt;
}

double NumberOf(const Cell& cell) {
  if (const auto* integer = std::get_if<int64_t>(&cell)) return static_cast<double>(*integer);
  if (const auto* real = std::get_if<double>(&cell)) return *real;
  if (const auto* fixed = std::get_if<FixedDecimal>(&cell)) return fixed->value;
  return 0;  // NULL adds nothing
}

// The columns that hold no number in any table.
std::vector<size_t> KeyColumns(const std::vector<RankTable>& tables, size_t value_column) {
  const size_t width = tables.front().table->columns.size();
  std::vector<bool> numeric(width, false);
  numeric[value_column] = true;
  for (const RankTable& table : tables) {
    for (const std::vector<Cell>& row : table.table->rows) {
      for (size_t i = 0; i < width; ++i) numeric[i] = numeric[i] || IsNumber(row[i]);
    }
  }
  std::vector<size_t> keys;
  for (size_t i = 0; i < width; ++i) {
    if (!numeric[i]) keys.push_back(i);
  }
  return keys;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// One key's values, one per file that has it, in input order.
struct KeyValues {
  std::vector<Cell> key_cells;
  std::vector<std::string> names;
  std::vector<double> values;
  double median = 0;
};

// Every key's values, in order of first appearance.
std::vector<KeyValues> CollectKeys(const std::vector<RankTable>& tables, size_t value_column,
                                   const std::vector<size_t>& key_columns) {
  std::vector<KeyValues> keys;
  std::map<std::string, size_t> index;  // joined key text -> position in `keys`
  for (const RankTable& table : tables) {
    std::map<size_t, double> sums;  // key position -> this file's summed value
    for (const std::vector<Cell>& row : table.table->rows) {
      std::string joined;
      for (size_t column : key_columns) joined += CellText(row[column]) + '\x1f';
      auto [found, added] = index.emplace(joined, keys.size());
      if (added) {
        KeyValues key;
        for (size_t column : key_columns) key.key_cells.push_back(row[column]);
        keys.push_back(std::move(key));
      }
      sums[found->second] += NumberOf(row[value_column]);
    }
    for (const auto& [position, sum] : sums) {
      keys[position].names.push_back(table.name);
      keys[position].values.push_back(sum);
    }
  }
  return keys;
}

std::string OutlierNames(const KeyValues& key) {
  std::vector<double> deviations;
  for (double value : key.values) deviations.push_back(std::fabs(value - key.median));
  const double mad = Median(deviations);
  const double threshold = std::max(kOutlierDeviations * kMadToDeviation * mad,
                                    kMinOutlierShare * std::fabs(key.median));
  std::string names;
  for (size_t i = 0; i < key.values.size(); ++i) {
    if (deviations[i] > threshold) names += (names.empty() ? "" : " ") + key.names[i];
  }
  return names;
}

// Min and Max print as the value column does: integers stay integers.
Cell AsValueCell(double value, bool integral) {
  return integral ? Cell(static_cast<int64_t>(value)) : Cell(value);
}

bool IntegralValues(const std::vector<RankTable>& tables, size_t value_column) {
  for (const RankTable& table : tables) {
    for (const std::vector<Cell>& row : table.table->rows) {
      if (!std::holds_alternative<int64_t>(row[value_column]) &&
          !std::holds_alternative<std::monostate>(row[value_column])) {
        return false;
      }
    }
  }
  return true;
}

std::vector<Cell> SummaryRow(const KeyValues& key, bool integral) {
  std::vector<Cell> row = key.key_cells;
  const auto lowest = std::min_element(key.values.begin(), key.values.end());
  const auto highest = std::max_element(key.values.begin(), key.values.end());  // the first
  row.push_back(static_cast<int64_t>(key.values.size()));
  row.push_back(AsValueCell(*lowest, integral));
  row.push_back(key.median);
  row.push_back(AsValueCell(*highest, integral));
  row.push_back(key.names[static_cast<size_t>(highest - key.values.begin())]);
  row.push_back(OutlierNames(key));
  return row;
}

}  // namespace

std::optional<ResultTable> SummarizeAcrossRanks(const std::vector<RankTable>& tables) {
  if (tables.empty()) return std::nullopt;
  const std::vector<std::string>& columns = tables.front().table->columns;
  const std::optional<size_t> value_column = ValueColumn(columns);
  if (!value_column) return std::nullopt;
  const std::vector<size_t> key_columns = KeyColumns(tables, *value_column);
  std::vector<KeyValues> keys = CollectKeys(tables, *value_column, key_columns);
  for (KeyValues& key : keys) key.median = Median(key.values);
  std::stable_sort(keys.begin(), keys.end(),
                   [](const KeyValues& a, const KeyValues& b) { return a.median > b.median; });

  ResultTable summary;
  for (size_t column : key_columns) summary.columns.push_back(columns[column]);
  const std::string& value = columns[*value_column];
  summary.columns.insert(summary.columns.end(), {"Ranks", "Min " + value, "Med " + value,
                                                 "Max " + value, "Max Rank", "Outlier Ranks"});
  const bool integral = IntegralValues(tables, *value_column);
  for (const KeyValues& key : keys) summary.rows.push_back(SummaryRow(key, integral));
  return summary;
}

}  // namespace prof::stats
