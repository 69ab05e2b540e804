// Names the Python frames a process recorded of itself, at an instant of its choosing (a CPU
// sample's signal, an OS-runtime call's backtrace): each frame is only a (code object address,
// instruction) pair until its text is read out of the process. The text comes from what
// prof-reader read while the process ran (DrainTimeReads::DescribedFrame), else from the process
// now, if it still runs; a frame that neither can describe keeps the code object's address as its
// symbol (module "[python]", unresolved), as an unresolved native frame keeps its own.
//
// The Python frames replace the interpreter's native frames (libpython's, or the python
// binary's), which stand for them, from the innermost such frame outwards; when the native stack
// has none (a frame-pointer chain that ended in code without frame pointers), they follow the
// native frames found. One thread (the collector's).
#pragma once

#include <cstdint>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/cpu_samples/python_readers.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "collector/python_frames/python_stack_reader.h"
#include "collector/symbols/string_interner.h"

namespace prof::collector {

class PythonPairFrames {
 public:
  // `reads` may be null: then every frame is read from the live process.
  explicit PythonPairFrames(DrainTimeReads* reads) : reads_(reads) {}

  // Splices the `count` pairs (innermost first) of stream `stream` (process `pid`, whose address
  // space `resolver` holds) into `frames`, a resolved native stack, leaf first.
  void Splice(uint64_t stream, uint32_t pid, const uint64_t* pairs, size_t count,
              const SampleResolver& resolver, std::vector<SampleFrame>* frames);

 private:
  // The frame's text from the reads, else read now; false when neither has it.
  bool Describe(uint64_t stream, uint32_t pid, uint64_t code, uint64_t instruction,
                const SampleResolver& resolver, PythonStackReader** live);
  // A reader of process `pid`'s Python, attached now (the process must still run); or null.
  PythonStackReader* LiveReader(uint32_t pid, const SampleResolver& resolver);

  DrainTimeReads* reads_;
  symbols::StringInterner strings_;
  PythonReaders python_;
  PythonFrameText text_;  // scratch
};

}  // namespace prof::collector
