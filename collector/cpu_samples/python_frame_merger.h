// Puts Python frames into the native stacks of CPU samples (--python-sampling, on with -s): the
// interpreter's own frames of a sample (libpython's, or the python binary's) are replaced by the
// Python functions the thread runs, innermost first, so a stack reads
// `memcpy ← at::copy_ ← ... ← to_tensor ← collate ← __next__ ← train ← <module>`.
//
// The Python stack is read from outside the program (collector/python_frames) when prof-sampler
// handles the sample, not at the sample's instant: a few ms later (the sampler drains every
// 10 ms with Python frames on). Functions that run longer than that are named exactly; a short
// call may be named by what the thread ran when it was read. Threads whose sample has no
// interpreter frame (C threads, a thread waiting in C code outside Python) keep their native
// stack only. Native frames between two Python frames (Python → C → Python) are not kept.
//
// prof-sampler only (not thread-safe).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/python_readers.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "collector/python_frames/python_stack_reader.h"
#include "collector/symbols/string_interner.h"

namespace prof::collector {

class PythonFrameMerger {
 public:
  // A new drain pass: stacks read in an earlier pass are read again.
  void NextPass() { ++pass_; }
  // `maps`: the sample's process's address space (to find its interpreter).
  void Merge(const symbols::ProcessMaps& maps, ResolvedSample* sample);

  // Samples that got Python frames.
  uint64_t merged() const { return merged_; }

 private:
  struct ThreadStack {
    uint64_t pass = 0;
    std::vector<SampleFrame> frames;
  };

  const std::vector<SampleFrame>& StackOf(PythonStackReader* reader, uint32_t tid);

  PythonReaders readers_;
  std::unordered_map<uint32_t, ThreadStack> stacks_;  // by tid
  symbols::StringInterner strings_;
  std::vector<PythonFrameText> read_;  // scratch
  uint64_t pass_ = 1;
  uint64_t merged_ = 0;
};

}  // namespace prof::collector
