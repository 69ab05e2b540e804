#include "diff/markdown_format.h"

#include <algorithm>
#include <vector>

#include "stats/cell_text.h"

namespace prof::diff {
namespace {

std::string EscapeCell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string Row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& cell : cells) line += " " + cell + " |";
  return line + "\n";
}

bool HoldsNumbers(const stats::ResultTable& table, size_t column) {
  return std::any_of(table.rows.begin(), table.rows.end(),
                     [&](const auto& row) { return stats::IsNumber(row[column]); });
}

}  // namespace

std::string RenderMarkdown(const stats::ResultTable& table) {
  std::vector<std::string> header, alignment;
  for (size_t column = 0; column < table.columns.size(); ++column) {
    header.push_back(EscapeCell(table.columns[column]));
    alignment.push_back(HoldsNumbers(table, column) ? "---:" : "---");
  }
  std::string out = Row(header) + Row(alignment);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const stats::Cell& cell : row) cells.push_back(EscapeCell(stats::GroupedCellText(cell)));
    out += Row(cells);
  }
  return out;
}

}  // namespace prof::diff
