#include "collector/cpu_samples/drain_time_reads.h"

#include <algorithm>
#include <cstring>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"

namespace prof::collector {

void DrainTimeReads::OnProcessConnected(uint32_t pid) {
  processes_.erase(pid);
  if (!ReadMaps(pid, &processes_[pid], protocol::MonotonicNowNs())) processes_.erase(pid);
}

void DrainTimeReads::OnRingRecords(uint32_t pid, const char* records, size_t size) {
  sampled_tids_.clear();
  backtrace_frames_.clear();
  backtraces_ = false;
  for (size_t offset = 0; size - offset >= sizeof(protocol::RecordHeader);) {
    protocol::RecordHeader header;
    std::memcpy(&header, records + offset, sizeof(header));
    if (header.size < sizeof(header) || header.size > size - offset) break;
    const char* record = records + offset;
    offset += header.size;
    if (header.kind == protocol::RecordKind::kCpuSample) {
      if (std::find(sampled_tids_.begin(), sampled_tids_.end(), header.tid) == sampled_tids_.end())
        sampled_tids_.push_back(header.tid);
    } else if (header.kind == protocol::RecordKind::kOsrtCall &&
               header.size > sizeof(protocol::OsrtCallRecord)) {
      protocol::OsrtCallRecord call;
      std::memcpy(&call, record, sizeof(call));
      const size_t python_bytes = call.python_frame_count * protocol::kOsrtPythonFrameBytes;
      // Framed as the collector checks it (OsrtTracker); anything else is its malformed record.
      if (header.size != sizeof(call) + call.native_frame_count * sizeof(uint64_t) + python_bytes)
        continue;
      backtraces_ = true;
      const char* python = record + header.size - python_bytes;
      for (size_t i = 0; i < call.python_frame_count; ++i) {
        Frame frame;
        std::memcpy(&frame.code, python + i * protocol::kOsrtPythonFrameBytes, sizeof(uint64_t));
        std::memcpy(&frame.instruction,
                    python + i * protocol::kOsrtPythonFrameBytes + sizeof(uint64_t),
                    sizeof(uint64_t));
        backtrace_frames_.push_back(frame);
      }
    }
  }
  if (sampled_tids_.empty() && !backtraces_) return;
  const uint64_t now = protocol::MonotonicNowNs();
  Process& process = processes_[pid];
  if (!ReadMaps(pid, &process, now)) {
    processes_.erase(pid);  // gone: its rings' last records follow, then nothing
    return;
  }
  if (sample_python_stacks_ && !sampled_tids_.empty()) ReadPythonStacks(pid, &process, now);
  if (!backtrace_frames_.empty()) DescribeBacktraceFrames(pid, &process, now);
}

bool DrainTimeReads::ReadMaps(uint32_t pid, Process* process, uint64_t now_ns) {
  if (process->maps_read_ns != 0 && now_ns - process->maps_read_ns < kMapsIntervalNs) return true;
  StatusOr<symbols::ProcessMaps> maps =
      symbols::ProcessMaps::SnapshotFromProc(static_cast<int>(pid));
  if (!maps.ok()) return false;
  process->maps_read_ns = now_ns;
  auto read = std::make_shared<const symbols::ProcessMaps>(std::move(maps).value());
  if (process->python == nullptr) process->maps_to_attach = read;
  const std::lock_guard<std::mutex> lock(mutex_);
  maps_[pid] = std::move(read);
  return true;
}

PythonStackReader* DrainTimeReads::PythonOf(uint32_t pid, Process* process, uint64_t now_ns) {
  if (process->python != nullptr || process->maps_to_attach == nullptr ||
      now_ns < process->next_attach_ns) {
    return process->python.get();
  }
  process->next_attach_ns = now_ns + kAttachRetryNs;
  StatusOr<std::unique_ptr<PythonStackReader>> attached =
      PythonStackReader::Attach(static_cast<int>(pid), *process->maps_to_attach);
  if (!attached.ok()) return nullptr;
  process->python = std::move(attached).value();
  process->maps_to_attach.reset();
  const std::lock_guard<std::mutex> lock(mutex_);
  interpreters_[pid] = process->python->interpreter_path();
  return process->python.get();
}

void DrainTimeReads::ReadPythonStacks(uint32_t pid, Process* process, uint64_t now_ns) {
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

void DrainTimeReads::DescribeBacktraceFrames(uint32_t pid, Process* process, uint64_t now_ns) {
  PythonStackReader* python = PythonOf(pid, process, now_ns);
  if (python == nullptr) return;
  PythonFrameText text;
  for (const Frame& frame : backtrace_frames_) {
    if (process->described.count(frame) != 0) continue;
    // A frame that cannot be described now is tried again when a record carries it again.
    if (!python->DescribeFrame(frame.code, frame.instruction, &text).ok()) continue;
    process->described.insert(frame);
    const std::lock_guard<std::mutex> lock(mutex_);
    std::unordered_map<Frame, PythonFrameText, FrameHash>& described = frames_[pid];
    const auto known = described.find(frame);
    if (known != described.end()) {
      known->second = text;  // the same address in the image an exec replaced
    } else if (frames_described_ < kMaxDescribedFrames) {
      described.emplace(frame, text);
      ++frames_described_;
    }
  }
}

std::shared_ptr<const symbols::ProcessMaps> DrainTimeReads::NewestMaps(uint32_t pid) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = maps_.find(pid);
  return found == maps_.end() ? nullptr : found->second;
}

std::shared_ptr<const DrainTimeReads::PythonStack> DrainTimeReads::StackAt(uint32_t pid,
                                                                           uint32_t tid,
                                                                           uint64_t time_ns) {
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

bool DrainTimeReads::DescribedFrame(uint32_t pid, uint64_t code, uint64_t instruction,
                                    PythonFrameText* text) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto process = frames_.find(pid);
  if (process == frames_.end()) return false;
  const auto found = process->second.find(Frame{code, instruction});
  if (found == process->second.end()) return false;
  *text = found->second;
  return true;
}

std::string DrainTimeReads::InterpreterOf(uint32_t pid) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = interpreters_.find(pid);
  return found == interpreters_.end() ? std::string() : found->second;
}

void AdoptedMaps::Update(DrainTimeReads* reads, uint32_t pid, SampleResolver* resolver) {
  std::shared_ptr<const symbols::ProcessMaps> newest = reads->NewestMaps(pid);
  std::shared_ptr<const symbols::ProcessMaps>& adopted = adopted_[pid];
  if (newest == nullptr || newest == adopted) return;
  resolver->AdoptMaps(pid, *newest);
  adopted = std::move(newest);
}

}  // namespace prof::collector
