// csv and tsv output (format_renderers.h).
#include <string>

#include "stats/cell_text.h"
#include "stats/format_renderers.h"

namespace prof::stats {
namespace {

std::string Field(const std::string& text, char separator) {
  if (text.find_first_of(std::string{separator, '"', '\n', '\r'}) == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void AppendLine(const std::vector<std::string>& fields, char separator, std::string* out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) *out += separator;
    *out += Field(fields[i], separator);
  }
  *out += '\n';
}

std::string RenderDelimited(const ResultTable& table, const FormatArgs& args, char separator) {
  std::string out;
  if (args.header) AppendLine(table.columns, separator, &out);
  std::vector<std::string> fields;
  for (const auto& row : table.rows) {
    fields.clear();
    for (const Cell& cell : row) fields.push_back(CellText(cell));
    AppendLine(fields, separator, &out);
  }
  return out;
}

}  // namespace

std::string RenderCsv(const ResultTable& table, const FormatArgs& args) {
  return RenderDelimited(table, args, ',');
}
std::string RenderTsv(const ResultTable& table, const FormatArgs& args) {
  return RenderDelimited(table, args, '\t');
}

}  // namespace prof::stats
