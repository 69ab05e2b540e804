#include "collector/cpu_samples/python_frame_merger.h"

#include "storage/tables/host_tables.h"

namespace prof::collector {

PythonStackReader* PythonFrameMerger::ReaderOf(uint32_t pid, const symbols::ProcessMaps& maps) {
  Process& process = processes_[pid];
  if (process.reader != nullptr) return process.reader.get();
  // A process not running Python yet (before libpython is mapped, or before exec) is tried again
  // once its address space changed.
  if (process.failed && process.maps_generation == maps.generation()) return nullptr;
  StatusOr<std::unique_ptr<PythonStackReader>> attached =
      PythonStackReader::Attach(static_cast<int>(pid), maps);
  if (!attached.ok()) {
    process.failed = true;
    process.maps_generation = maps.generation();
    return nullptr;
  }
  process.reader = std::move(attached).value();
  return process.reader.get();
}

const std::vector<SampleFrame>& PythonFrameMerger::StackOf(PythonStackReader* reader,
                                                           uint32_t tid) {
  ThreadStack& stack = stacks_[tid];
  if (stack.pass == pass_) return stack.frames;  // one read per thread and pass
  stack.pass = pass_;
  stack.frames.clear();
  if (!reader->ReadStack(static_cast<int>(tid), &read_).ok()) return stack.frames;
  for (const PythonFrameText& frame : read_) {
    SampleFrame python;
    python.symbol = strings_.Intern(frame.function);
    python.module = strings_.Intern(frame.file);
    python.ip = static_cast<uint64_t>(frame.line);
    python.unresolved = false;
    python.unwind_method = storage::kUnwindPythonFrame;
    stack.frames.push_back(python);
  }
  return stack.frames;
}

void PythonFrameMerger::Merge(const symbols::ProcessMaps& maps, ResolvedSample* sample) {
  PythonStackReader* reader = ReaderOf(sample->pid, maps);
  if (reader == nullptr) return;
  // The innermost frame of the interpreter: where the thread's Python code is.
  size_t interpreter_at = 0;
  while (interpreter_at < sample->frames.size() &&
         sample->frames[interpreter_at].module != reader->interpreter_path()) {
    ++interpreter_at;
  }
  if (interpreter_at == sample->frames.size()) return;  // not in Python code now
  const std::vector<SampleFrame>& python = StackOf(reader, sample->tid);
  if (python.empty()) return;
  sample->frames.resize(interpreter_at);
  sample->frames.insert(sample->frames.end(), python.begin(), python.end());
  ++merged_;
}

}  // namespace prof::collector
