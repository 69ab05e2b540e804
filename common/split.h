// Splitting option text such as "<rule>:<option>=<value>:..." and "3.20.3" at a separator.
#pragma once

#include <string>
#include <vector>

namespace prof {

// The parts of `text` between separators, empty ones kept: "a::b" -> {"a", "", "b"}, "" -> {""}.
inline std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t at = text.find(separator); at != std::string::npos;
       at = text.find(separator, begin)) {
    parts.push_back(text.substr(begin, at - begin));
    begin = at + 1;
  }
  parts.push_back(text.substr(begin));
  return parts;
}

}  // namespace prof
