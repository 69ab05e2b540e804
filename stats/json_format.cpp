// json output (format_renderers.h).
#include <cmath>
#include <string>

#include "stats/cell_text.h"
#include "stats/format_renderers.h"
#include "stats/json_string.h"

namespace prof::stats {
namespace {

// Valid JSON whatever the report's bytes are (stats/json_string.h).
std::string JsonString(const std::string& text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

std::string JsonValue(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "null";
  if (const auto* text = std::get_if<std::string>(&cell)) return JsonString(*text);
  // JSON has no NaN or infinity.
  if (const auto* real = std::get_if<double>(&cell); real != nullptr && !std::isfinite(*real)) {
    return "null";
  }
  return CellText(cell);
}

}  // namespace

// JSON has no header: the column names are the keys of every object, so `args` changes nothing.
std::string RenderJson(const ResultTable& table, const FormatArgs& /*args*/) {
  std::string out = "[\n";
  for (size_t r = 0; r < table.rows.size(); ++r) {
    out += "  {";
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (c > 0) out += ", ";
      out += JsonString(table.columns[c]) + ": " + JsonValue(table.rows[r][c]);
    }
    out += r + 1 < table.rows.size() ? "},\n" : "}\n";
  }
  return out + "]\n";
}

}  // namespace prof::stats
