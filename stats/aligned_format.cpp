// column and table output (format_renderers.h): aligned text for people.
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

// nsys's column and table formats cap an automatic column width at 100 characters.
constexpr size_t kMaxColumnWidth = 100;

// `text` cut to kMaxColumnWidth code points, the last one "…", when it is longer.
std::string Limited(std::string text) {
  if (Width(text) <= kMaxColumnWidth) return text;
  size_t kept = 0;
  size_t end = 0;
  for (; end < text.size(); ++end) {
    const bool starts_code_point = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
    if (starts_code_point && kept++ == kMaxColumnWidth - 1) break;
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

Layout MakeLayout(const ResultTable& table, const FormatArgs& args) {
  Layout layout;
  const auto fit = [&](std::string text) {
    return args.width_limit ? Limited(std::move(text)) : text;
  };
  layout.right_aligned.assign(table.columns.size(), true);
  for (const std::string& header : table.columns) {
    layout.headers.push_back(fit(header));
    layout.widths.push_back(Width(layout.headers.back()));
  }
  for (const auto& row : table.rows) {
    std::vector<std::string> texts;
    for (size_t c = 0; c < row.size(); ++c) {
      texts.push_back(fit(GroupedCellText(row[c])));
      if (std::holds_alternative<std::string>(row[c])) layout.right_aligned[c] = false;
      if (Width(texts.back()) > layout.widths[c]) layout.widths[c] = Width(texts.back());
    }
    layout.rows.push_back(std::move(texts));
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
