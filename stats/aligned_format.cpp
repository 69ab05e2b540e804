// column and table output (format_renderers.h): aligned text for people.
#include <algorithm>
#include <string>
#include <vector>

#include "stats/cell_text.h"
#include "stats/format_renderers.h"

namespace prof::stats {
namespace {

// Display width of UTF-8 text: one per code point (no wide-character handling).
size_t Width(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

// `text` clipped to `width` code points, the last one "…", when it is longer (nsys marks a value
// clipped to its column so).
std::string Clipped(const std::string& text, size_t width) {
  if (Width(text) <= width) return text;
  size_t kept = 0;
  size_t end = 0;
  for (; end < text.size(); ++end) {
    const bool starts_code_point = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
    if (starts_code_point && kept++ + 1 >= width) break;
  }
  return text.substr(0, end) + "\u2026";
}

std::string Pad(const std::string& text, size_t left, size_t right) {
  return std::string(left, ' ') + text + std::string(right, ' ');
}

// Centered like Python's str.center, which nsys uses for headers: an odd margin puts the extra
// space on the left when the width is odd.
std::string Center(const std::string& text, size_t width) {
  const size_t margin = width - Width(text);
  const size_t left = margin / 2 + (margin & width & 1);
  return Pad(text, left, margin - left);
}

// The cells of a table as text, with per-column widths and alignment.
struct Layout {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> widths;
  std::vector<bool> right_aligned;  // numeric columns

  std::string Header(size_t column) const { return Center(headers[column], widths[column]); }
  std::string Cell(size_t row, size_t column) const {
    const std::string& text = rows[row][column];
    const size_t margin = widths[column] - Width(text);
    return right_aligned[column] ? Pad(text, margin, 0) : Pad(text, 0, margin);
  }
};

// Widths as nsys's column formatter sets them: from the header and the first args.width_rows rows,
// at most kMaxColumnWidth unless `nolimit`; then every text wider than its column is clipped.
Layout MakeLayout(const ResultTable& table, const FormatArgs& args) {
  Layout layout;
  layout.headers = table.columns;
  layout.right_aligned.assign(table.columns.size(), true);
  for (const std::string& header : table.columns) layout.widths.push_back(Width(header));
  for (size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string> texts;
    for (size_t c = 0; c < table.rows[r].size(); ++c) {
      const Cell& cell = table.rows[r][c];
      texts.push_back(GroupedCellText(cell));
      if (std::holds_alternative<std::string>(cell)) layout.right_aligned[c] = false;
      if (r < args.width_rows) layout.widths[c] = std::max(layout.widths[c], Width(texts.back()));
    }
    layout.rows.push_back(std::move(texts));
  }
  for (size_t c = 0; c < layout.widths.size(); ++c) {
    if (args.width_limit) layout.widths[c] = std::min(layout.widths[c], kMaxColumnWidth);
    layout.headers[c] = Clipped(layout.headers[c], layout.widths[c]);
    for (auto& row : layout.rows) row[c] = Clipped(row[c], layout.widths[c]);
  }
  return layout;
}

std::string TrimRight(std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

template <typename CellOf>
std::string ColumnLine(const Layout& layout, CellOf cell_of) {
  std::string line;
  for (size_t c = 0; c < layout.widths.size(); ++c) line += (c > 0 ? "  " : " ") + cell_of(c);
  return TrimRight(line) + '\n';
}

template <typename CellOf>
std::string BoxLine(const Layout& layout, CellOf cell_of) {
  std::string line = "|";
  for (size_t c = 0; c < layout.widths.size(); ++c) line += " " + cell_of(c) + " |";
  return line + '\n';
}

std::string BoxRule(const Layout& layout) {
  std::string line = "+";
  for (size_t width : layout.widths) line += std::string(width + 2, '-') + "+";
  return line + '\n';
}

}  // namespace

std::string RenderColumn(const ResultTable& table, const FormatArgs& args) {
  const Layout layout = MakeLayout(table, args);
  std::string out;
  if (args.header) {
    out += ColumnLine(layout, [&](size_t c) { return layout.Header(c); });
    out += ColumnLine(layout, [&](size_t c) { return std::string(layout.widths[c], '-'); });
  }
  for (size_t r = 0; r < layout.rows.size(); ++r) {
    out += ColumnLine(layout, [&](size_t c) { return layout.Cell(r, c); });
  }
  return out;
}

std::string RenderTable(const ResultTable& table, const FormatArgs& args) {
  const Layout layout = MakeLayout(table, args);
  std::string out = BoxRule(layout);
  if (args.header) {
    out += BoxLine(layout, [&](size_t c) { return layout.Header(c); });
    out += BoxRule(layout);
  }
  for (size_t r = 0; r < layout.rows.size(); ++r) {
    out += BoxLine(layout, [&](size_t c) { return layout.Cell(r, c); });
  }
  return out + BoxRule(layout);
}

}  // namespace prof::stats
