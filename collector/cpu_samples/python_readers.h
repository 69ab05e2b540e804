// The PythonStackReader of each traced process, attached at its first need. A process that is
// not running Python yet (before libpython is mapped, or before exec) is tried again once its
// address space changed. One thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/sample_resolver.h"
#include "collector/python_frames/python_stack_reader.h"
#include "collector/symbols/process_maps.h"
#include "collector/symbols/string_interner.h"

namespace prof::collector {

// Where the innermost frame of the interpreter (libpython or the python binary at
// `interpreter_path`) lies in a native stack, innermost first: the frames from there outwards are
// the interpreter running the thread's Python functions. frames.size() when the stack has none.
size_t InnermostInterpreterFrame(const std::vector<SampleFrame>& frames,
                                 std::string_view interpreter_path);

// A Python frame as a stack frame (unwindMethod kUnwindPythonFrame, originalIP its line), its texts
// kept in `strings`.
SampleFrame PythonSampleFrame(const PythonFrameText& text, symbols::StringInterner* strings);

class PythonReaders {
 public:
  // Null when process `pid` runs no readable Python (PythonStackReader::Attach's reasons).
  PythonStackReader* Of(uint32_t pid, const symbols::ProcessMaps& maps);

 private:
  struct Process {
    std::unique_ptr<PythonStackReader> reader;
    uint64_t maps_generation = 0;  // of the last failed attach
    bool failed = false;
  };
  std::unordered_map<uint32_t, Process> processes_;  // by pid
};

}  // namespace prof::collector
