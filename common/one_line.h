// Message text made fit for prof's one-line console convention ("prof: error: ..."): the reasons
// SQLite and the file system give, and names taken from a report, may contain line breaks.
#pragma once

#include <string>
#include <string_view>

namespace prof {

// `text` with each line break replaced by a space (none doubled, none at the end).
inline std::string OneLine(std::string_view text) {
  std::string line;
  for (char c : text) {
    const bool line_break = c == '\n' || c == '\r';
    if (!line_break) {
      line += c;
    } else if (!line.empty() && line.back() != ' ') {
      line += ' ';
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

}  // namespace prof
