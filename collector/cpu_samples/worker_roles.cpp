#include "collector/cpu_samples/worker_roles.h"

#include "storage/tables/host_tables.h"

namespace prof::collector {
namespace {

bool EndsWith(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

bool IsPythonFrame(const SampleFrame& frame) {
  return frame.unwind_method == storage::kUnwindPythonFrame;
}

// A Python frame of `function` in a file whose path ends with `file` (a Python frame's module is
// its file).
bool IsFrameOf(const SampleFrame& frame, std::string_view function, std::string_view file) {
  return IsPythonFrame(frame) && frame.symbol == function && EndsWith(frame.module, file);
}

}  // namespace

std::string_view WorkerRoleOf(const std::vector<SampleFrame>& frames) {
  // Innermost first: a worker's own loop lies inside the frames that started it.
  for (size_t i = 0; i < frames.size(); ++i) {
    if (IsFrameOf(frames[i], "_worker_loop", "/torch/utils/data/_utils/worker.py")) {
      return "pt_data_worker";
    }
    if (IsFrameOf(frames[i], "worker", "/multiprocessing/pool.py")) return "PoolWorker";
    // Qualified names from Python 3.11 on (co_qualname), bare before.
    if (IsFrameOf(frames[i], "BaseProcess.run", "/multiprocessing/process.py") ||
        IsFrameOf(frames[i], "run", "/multiprocessing/process.py")) {
      // BaseProcess.run calls the target: the nearest Python frame inside it.
      for (size_t inner = i; inner-- > 0;) {
        if (IsPythonFrame(frames[inner])) return frames[inner].symbol;
      }
      return {};
    }
  }
  return {};
}

}  // namespace prof::collector
