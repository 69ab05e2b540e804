// A library for Python's ctypes that reads the calling thread's Python stack with prof's reader,
// the way libprof_cuda.so does inside a CUDA API callback, and hands it back as text.
#include <cstdio>
#include <cstring>
#include <string>

#include "injection/python/python_interpreter.h"

using prof::injection::python::DescribeCode;
using prof::injection::python::FindInterpreter;
using prof::injection::python::InterpreterSupport;
using prof::injection::python::PythonFrame;
using prof::injection::python::ReadCurrentStack;

// Writes "<line>\t<function>\t<file>\n" per frame, innermost first, into `out` (NUL-terminated);
// returns the number of frames, or -1 when `out` is too small.
extern "C" __attribute__((visibility("default"))) int prof_probe_stack(char* out, int capacity,
                                                                       int max_frames) {
  PythonFrame frames[64];
  FindInterpreter(nullptr);
  const size_t count = ReadCurrentStack(frames, max_frames < 64 ? max_frames : 64);
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    std::string file, function;
    DescribeCode(frames[i].code, &file, &function);
    text += std::to_string(prof::injection::python::LineOf(frames[i])) + "\t" + function + "\t" +
            file + "\n";
  }
  if (text.size() + 1 > static_cast<size_t>(capacity)) return -1;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return static_cast<int>(count);
}

// 0 not Python, 1 supported, 2 unsupported; the version into `out`.
extern "C" __attribute__((visibility("default"))) int prof_probe_interpreter(char* out,
                                                                             int capacity) {
  std::string version;
  const InterpreterSupport support = FindInterpreter(&version);
  std::snprintf(out, static_cast<size_t>(capacity), "%s", version.c_str());
  return static_cast<int>(support);
}
