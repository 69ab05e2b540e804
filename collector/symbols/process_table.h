// The address spaces of every traced process, by pid: what the symbolizer and the unwinder read.
// The integrator feeds it from perf's MMAP2, COMM(exec) and FORK records. Not thread-safe.
#pragma once

#include <unordered_map>

#include "collector/symbols/process_maps.h"

namespace prof::symbols {

class ProcessTable {
 public:
  // The process's maps, made empty on first use.
  ProcessMaps& Process(int pid) { return processes_[pid]; }
  // Null when nothing is known about `pid`.
  const ProcessMaps* Find(int pid) const;
  // PERF_RECORD_FORK: `child` starts as a copy of `parent` (empty when the parent is unknown).
  void Fork(int child, int parent);
  // Reads /proc/<pid>/maps into `pid`'s entry, replacing what it held.
  Status SnapshotFromProc(int pid);

 private:
  std::unordered_map<int, ProcessMaps> processes_;
};

}  // namespace prof::symbols
