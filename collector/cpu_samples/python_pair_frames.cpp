#include "collector/cpu_samples/python_pair_frames.h"

#include <cstdio>
#include <string>

#include "storage/tables/host_tables.h"

namespace prof::collector {

void PythonPairFrames::Splice(uint64_t stream, uint32_t pid, const uint64_t* pairs, size_t count,
                              const SampleResolver& resolver, std::vector<SampleFrame>* frames) {
  if (count == 0) return;
  std::string interpreter = reads_ != nullptr ? reads_->InterpreterOf(stream) : std::string();
  // Read now only when the reads lack the interpreter (the process may have run no Python yet).
  PythonStackReader* live = nullptr;
  if (interpreter.empty()) {
    live = LiveReader(pid, resolver);
    if (live != nullptr) interpreter = live->interpreter_path();
  }
  if (!interpreter.empty()) {
    // The interpreter's own frames stand for the Python functions that follow.
    frames->resize(InnermostInterpreterFrame(*frames, interpreter));
  }
  for (size_t i = 0; i < count; ++i) {
    const uint64_t code = pairs[2 * i];
    if (Describe(stream, pid, code, pairs[2 * i + 1], resolver, &live)) {
      frames->push_back(PythonSampleFrame(text_, &strings_));
      continue;
    }
    char address[24];
    std::snprintf(address, sizeof(address), "0x%llx", static_cast<unsigned long long>(code));
    SampleFrame frame;
    frame.symbol = strings_.Intern(address);
    frame.module = strings_.Intern("[python]");
    frame.unresolved = true;
    frame.unwind_method = storage::kUnwindPythonFrame;
    frames->push_back(frame);
  }
}

bool PythonPairFrames::Describe(uint64_t stream, uint32_t pid, uint64_t code, uint64_t instruction,
                                const SampleResolver& resolver, PythonStackReader** live) {
  if (reads_ != nullptr && reads_->DescribedFrame(stream, code, instruction, &text_)) return true;
  if (*live == nullptr) *live = LiveReader(pid, resolver);
  return *live != nullptr && (*live)->DescribeFrame(code, instruction, &text_).ok();
}

PythonStackReader* PythonPairFrames::LiveReader(uint32_t pid, const SampleResolver& resolver) {
  const symbols::ProcessMaps* maps = resolver.MapsOf(pid);
  return maps != nullptr ? python_.Of(pid, *maps) : nullptr;
}

}  // namespace prof::collector
