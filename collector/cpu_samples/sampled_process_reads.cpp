#include "collector/cpu_samples/sampled_process_reads.h"

#include <algorithm>
#include <cstring>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"

namespace prof::collector {

void SampledProcessReads::OnRingRecords(uint32_t pid, const char* records, size_t size) {
  sampled_tids_.clear();
  for (size_t offset = 0; size - offset >= sizeof(protocol::RecordHeader);) {
    protocol::RecordHeader header;
    std::memcpy(&header, records + offset, sizeof(header));
    if (header.size < sizeof(header) || header.size > size - offset) break;
    offset += header.size;
    if (header.kind != protocol::RecordKind::kCpuSample) continue;
    if (std::find(sampled_tids_.begin(), sampled_tids_.end(), header.tid) == sampled_tids_.end())
      sampled_tids_.push_back(header.tid);
  }
  if (sampled_tids_.empty()) return;
  const uint64_t now = protocol::MonotonicNowNs();
  Process& process = processes_[pid];
  if (!ReadMaps(pid, &process, now)) {
    processes_.erase(pid);  // gone: its rings' last records follow, then nothing
    return;
  }
  if (python_stacks_) ReadPythonStacks(pid, &process, now);
}

bool SampledProcessReads::ReadMaps(uint32_t pid, Process* process, uint64_t now_ns) {
  if (process->maps_read_ns != 0 && now_ns - process->maps_read_ns < kMapsIntervalNs) return true;
  StatusOr<symbols::ProcessMaps> maps =
      symbols::ProcessMaps::SnapshotFromProc(static_cast<int>(pid));
  if (!maps.ok()) return false;
  process->maps_read_ns = now_ns;
  if (python_stacks_ && process->python == nullptr) process->maps_to_attach = *maps;
  const std::lock_guard<std::mutex> lock(mutex_);
  maps_[pid] = std::move(maps).value();
  return true;
}

PythonStackReader* SampledProcessReads::PythonOf(uint32_t pid, Process* process, uint64_t now_ns) {
  if (process->python != nullptr || !process->maps_to_attach || now_ns < process->next_attach_ns)
    return process->python.get();
  process->next_attach_ns = now_ns + kAttachRetryNs;
  StatusOr<std::unique_ptr<PythonStackReader>> attached =
      PythonStackReader::Attach(static_cast<int>(pid), *process->maps_to_attach);
  if (!attached.ok()) return nullptr;
  process->python = std::move(attached).value();
  process->maps_to_attach.reset();
  return process->python.get();
}

void SampledProcessReads::ReadPythonStacks(uint32_t pid, Process* process, uint64_t now_ns) {
  PythonStackReader* python = PythonOf(pid, process, now_ns);
  if (python == nullptr) return;
  for (const uint32_t tid : sampled_tids_) {
    uint64_t& last_read = process->stack_read_ns[tid];
    if (last_read != 0 && now_ns - last_read < kMinReadIntervalNs) continue;
    // Fails only when the process is gone; its address space's next read says so.
    if (!python->ReadStack(static_cast<int>(tid), &read_).ok()) return;
    last_read = now_ns;
    auto stack = std::make_shared<PythonStack>();
    stack->time_ns = protocol::MonotonicNowNs();
    stack->interpreter_path = python->interpreter_path();
    stack->frames = read_;
    const std::lock_guard<std::mutex> lock(mutex_);
    std::deque<std::shared_ptr<const PythonStack>>& reads = stacks_[Key(pid, tid)];
    reads.push_back(std::move(stack));
    if (reads.size() > kMaxReadsPerThread) reads.pop_front();
  }
}

std::optional<symbols::ProcessMaps> SampledProcessReads::TakeMaps(uint32_t pid) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = maps_.find(pid);
  if (found == maps_.end()) return std::nullopt;
  std::optional<symbols::ProcessMaps> maps = std::move(found->second);
  maps_.erase(found);
  return maps;
}

std::shared_ptr<const SampledProcessReads::PythonStack> SampledProcessReads::StackAt(
    uint32_t pid, uint32_t tid, uint64_t time_ns) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = stacks_.find(Key(pid, tid));
  if (found == stacks_.end()) return nullptr;
  std::deque<std::shared_ptr<const PythonStack>>& reads = found->second;
  // The first read after the sample, and the one before it (the last at or before).
  const auto after = std::find_if(reads.begin(), reads.end(),
                                  [&](const auto& read) { return read->time_ns > time_ns; });
  // Earlier reads name no later sample of this thread.
  if (after - reads.begin() > 1) reads.erase(reads.begin(), after - 1);
  const auto before = reads.front()->time_ns <= time_ns ? reads.begin() : reads.end();
  const auto next = before == reads.end() ? reads.begin() : before + 1;
  const uint64_t before_distance =
      before == reads.end() ? UINT64_MAX : time_ns - (*before)->time_ns;
  const uint64_t after_distance = next == reads.end() ? UINT64_MAX : (*next)->time_ns - time_ns;
  if (std::min(before_distance, after_distance) > kReachNs) return nullptr;
  return before_distance <= after_distance ? *before : *next;
}

}  // namespace prof::collector
