#include "collector/cpu_samples/python_readers.h"

#include "storage/tables/host_tables.h"

namespace prof::collector {

size_t InnermostInterpreterFrame(const std::vector<SampleFrame>& frames,
                                 std::string_view interpreter_path) {
  size_t at = 0;
  while (at < frames.size() && frames[at].module != interpreter_path) ++at;
  return at;
}

SampleFrame PythonSampleFrame(const PythonFrameText& text, symbols::StringInterner* strings) {
  SampleFrame frame;
  frame.symbol = strings->Intern(text.function);
  frame.module = strings->Intern(text.file);
  frame.ip = static_cast<uint64_t>(text.line);
  frame.unresolved = false;
  frame.unwind_method = storage::kUnwindPythonFrame;
  return frame;
}

PythonStackReader* PythonReaders::Of(uint32_t pid, const symbols::ProcessMaps& maps) {
  Process& process = processes_[pid];
  if (process.reader != nullptr) return process.reader.get();
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

}  // namespace prof::collector
