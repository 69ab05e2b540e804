#include "collector/cpu_samples/python_stack_snapshots.h"

#include <algorithm>
#include <cstring>

#include "collector/symbols/process_maps.h"
#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"

namespace prof::collector {

PythonStackReader* PythonStackSnapshots::ReaderOf(uint32_t pid, uint64_t now_ns) {
  Process& process = processes_[pid];
  if (process.reader != nullptr || now_ns < process.next_attach_ns) return process.reader.get();
  process.next_attach_ns = now_ns + kAttachRetryNs;
  StatusOr<symbols::ProcessMaps> maps =
      symbols::ProcessMaps::SnapshotFromProc(static_cast<int>(pid));
  if (!maps.ok()) {
    processes_.erase(pid);  // gone: its last rings' records follow, then nothing
    return nullptr;
  }
  StatusOr<std::unique_ptr<PythonStackReader>> attached =
      PythonStackReader::Attach(static_cast<int>(pid), *maps);
  if (attached.ok()) process.reader = std::move(attached).value();
  return process.reader.get();
}

void PythonStackSnapshots::OnRingRecords(uint32_t pid, const char* records, size_t size) {
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
  PythonStackReader* reader = ReaderOf(pid, now);
  if (reader == nullptr) return;
  Process& process = processes_[pid];
  for (const uint32_t tid : sampled_tids_) {
    uint64_t& last_read = process.last_read_ns[tid];
    if (last_read != 0 && now - last_read < kMinReadIntervalNs) continue;
    if (!reader->ReadStack(static_cast<int>(tid), &read_).ok()) {
      // The process is gone (or its pid now names another one): attach afresh if it speaks again.
      processes_.erase(pid);
      return;
    }
    last_read = now;
    auto snapshot = std::make_shared<Snapshot>();
    snapshot->time_ns = protocol::MonotonicNowNs();
    snapshot->interpreter_path = reader->interpreter_path();
    snapshot->frames = read_;
    const std::lock_guard<std::mutex> lock(mutex_);
    std::deque<std::shared_ptr<const Snapshot>>& reads = reads_[Key(pid, tid)];
    reads.push_back(std::move(snapshot));
    if (reads.size() > kMaxReadsPerThread) reads.pop_front();
  }
}

std::shared_ptr<const PythonStackSnapshots::Snapshot> PythonStackSnapshots::StackAt(
    uint32_t pid, uint32_t tid, uint64_t time_ns) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = reads_.find(Key(pid, tid));
  if (found == reads_.end()) return nullptr;
  std::deque<std::shared_ptr<const Snapshot>>& reads = found->second;
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
