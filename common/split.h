// Splitting text at a separator: option text such as "<rule>:<option>=<value>:...", "3.20.3", the
// lines and fields of a tsv.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace prof {

// The parts of `text` between separators, empty ones kept: "a::b" -> {"a", "", "b"}, "" -> {""}.
// `Text` is std::string (copies) or std::string_view (views into `text`).
template <typename Text>
std::vector<Text> Split(const Text& text, char separator) {
  std::vector<Text> parts;
  size_t begin = 0;
  for (size_t at = text.find(separator); at != Text::npos; at = text.find(separator, begin)) {
    parts.push_back(text.substr(begin, at - begin));
    begin = at + 1;
  }
  parts.push_back(text.substr(begin));
  return parts;
}

}  // namespace prof
