#include "stats/cell_text.h"

#include <fmt/format.h>

#include <cmath>

namespace prof::stats {
namespace {

std::string RealText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // fmt's default is the shortest round-trip form, as Python's repr; Python adds ".0" to whole
  // numbers written without an exponent.
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

struct TextOf {
  std::string operator()(std::monostate) const { return ""; }
  std::string operator()(int64_t value) const { return std::to_string(value); }
  std::string operator()(double value) const { return RealText(value); }
  std::string operator()(const std::string& value) const { return value; }
  std::string operator()(const FixedDecimal& value) const {
    return fmt::format("{:.{}f}", value.value, value.places);
  }
};

// Inserts ',' every three digits of the leading run of digits (after an optional '-').
std::string GroupDigits(const std::string& text) {
  const size_t begin = (!text.empty() && text[0] == '-') ? 1 : 0;
  size_t end = begin;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  std::string grouped = text.substr(0, begin);
  for (size_t i = begin; i < end; ++i) {
    if (i > begin && (end - i) % 3 == 0) grouped += ',';
    grouped += text[i];
  }
  return grouped + text.substr(end);
}

}  // namespace

std::string CellText(const Cell& cell) { return std::visit(TextOf{}, cell); }

std::string GroupedCellText(const Cell& cell) {
  std::string text = CellText(cell);
  if (!IsNumber(cell) || text.find('e') != std::string::npos) return text;
  return GroupDigits(text);
}

}  // namespace prof::stats
