#include "collector/cpu_samples/python_frame_merger.h"

#include "storage/tables/host_tables.h"

namespace prof::collector {

const std::vector<SampleFrame>& PythonFrameMerger::StackOf(PythonStackReader* reader,
                                                           uint32_t tid) {
  ThreadStack& stack = stacks_[tid];
  if (stack.pass == pass_) return stack.frames;  // one read per thread and pass
  stack.pass = pass_;
  stack.frames.clear();
  if (!reader->ReadStack(static_cast<int>(tid), &read_).ok()) return stack.frames;
  for (const PythonFrameText& frame : read_)
    stack.frames.push_back(PythonSampleFrame(frame, &strings_));
  return stack.frames;
}

void PythonFrameMerger::Merge(const symbols::ProcessMaps& maps, ResolvedSample* sample) {
  PythonStackReader* reader = readers_.Of(sample->pid, maps);
  if (reader == nullptr) return;
  // The innermost frame of the interpreter: where the thread's Python code is.
  const size_t interpreter_at =
      InnermostInterpreterFrame(sample->frames, reader->interpreter_path());
  if (interpreter_at == sample->frames.size()) return;  // not in Python code now
  const std::vector<SampleFrame>& python = StackOf(reader, sample->tid);
  if (python.empty()) return;
  sample->frames.resize(interpreter_at);
  sample->frames.insert(sample->frames.end(), python.begin(), python.end());
  ++merged_;
}

}  // namespace prof::collector
