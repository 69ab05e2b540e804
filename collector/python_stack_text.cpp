#include "collector/python_stack_text.h"

#include <charconv>

namespace prof::collector {

bool ParsePythonStack(std::string_view text, std::vector<PythonStackFrame>* frames) {
  frames->clear();
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) return false;
    const std::string_view frame = text.substr(0, end);
    text.remove_prefix(end + 1);
    const size_t first_tab = frame.find('\t');
    const size_t second_tab =
        frame.find('\t', first_tab == std::string_view::npos ? 0 : first_tab + 1);
    if (first_tab == std::string_view::npos || second_tab == std::string_view::npos) return false;
    PythonStackFrame parsed;
    const auto [rest, error] = std::from_chars(frame.data(), frame.data() + first_tab, parsed.line);
    if (error != std::errc() || rest != frame.data() + first_tab) return false;
    parsed.function = frame.substr(first_tab + 1, second_tab - first_tab - 1);
    parsed.file = frame.substr(second_tab + 1);
    frames->push_back(parsed);
  }
  return true;
}

}  // namespace prof::collector
