#include "collector/symbols/process_table.h"

#include <utility>

namespace prof::symbols {

const ProcessMaps* ProcessTable::Find(int pid) const {
  auto it = processes_.find(pid);
  return it == processes_.end() ? nullptr : &it->second;
}

void ProcessTable::Fork(int child, int parent) {
  ProcessMaps copy;
  if (const ProcessMaps* parent_maps = Find(parent)) copy.Fork(*parent_maps);
  processes_[child] = std::move(copy);
}

Status ProcessTable::SnapshotFromProc(int pid) {
  PROF_ASSIGN_OR_RETURN(ProcessMaps maps, ProcessMaps::SnapshotFromProc(pid));
  processes_[pid] = std::move(maps);
  return Status::Ok();
}

}  // namespace prof::symbols
