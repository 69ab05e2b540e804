// The frames of a CudaPythonStackRecord's text: "<line>\t<function>\t<file>\n" per frame, innermost
// first (injection/protocol/cuda_records.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace prof::collector {

struct PythonStackFrame {
  int64_t line = 0;
  std::string_view function;  // into the record's text
  std::string_view file;
};

// Parses `text` into `frames` (views into `text`); false when a frame is malformed, in which case
// `frames` holds the frames before it.
bool ParsePythonStack(std::string_view text, std::vector<PythonStackFrame>* frames);

}  // namespace prof::collector
