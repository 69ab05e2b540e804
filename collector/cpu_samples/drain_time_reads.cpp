#include "collector/cpu_samples/drain_time_reads.h"

#include <algorithm>
#include <cstring>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"

namespace prof::collector {

void DrainTimeReads::OnStreamConnected(uint64_t stream, uint32_t pid) {
  Stream& state = streams_[stream];
  state.pid = pid;
  ReadMaps(stream, &state, protocol::MonotonicNowNs());
}

void DrainTimeReads::OnRingRecords(uint64_t stream, uint32_t pid, const char* records,
                                   size_t size) {
  sampled_tids_.clear();
  backtrace_frames_.clear();
  bool backtraces = false;
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
      if (!protocol::OsrtCallFramed(call)) continue;  // the collector's malformed record
      backtraces = true;
      const char* python =
          record + header.size - call.python_frame_count * protocol::kOsrtPythonFrameBytes;
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
  if (sampled_tids_.empty() && !backtraces) return;
  Stream& state = streams_[stream];
  state.pid = pid;
  const uint64_t now = protocol::MonotonicNowNs();
  if (!ReadMaps(stream, &state, now)) return;  // gone: its rings' last records follow
  if (sample_python_stacks_ && !sampled_tids_.empty()) ReadPythonStacks(stream, &state, now);
  if (!backtrace_frames_.empty()) DescribeBacktraceFrames(stream, &state, now);
}

bool DrainTimeReads::ReadMaps(uint64_t stream, Stream* state, uint64_t now_ns) {
  if (state->gone) return false;
  if (state->maps_read_ns != 0 && now_ns - state->maps_read_ns < kMapsIntervalNs) return true;
  StatusOr<symbols::ProcessMaps> maps =
      symbols::ProcessMaps::SnapshotFromProc(static_cast<int>(state->pid));
  // An exited process that is not reaped yet still has its /proc entry, with no mappings.
  if (!maps.ok() || maps->mappings().empty()) {
    state->gone = true;
    return false;
  }
  state->maps_read_ns = now_ns;
  auto read = std::make_shared<const symbols::ProcessMaps>(std::move(maps).value());
  if (state->python == nullptr) state->maps_to_attach = read;
  const std::lock_guard<std::mutex> lock(mutex_);
  reads_[stream].maps = std::move(read);
  return true;
}

PythonStackReader* DrainTimeReads::PythonOf(uint64_t stream, Stream* state, uint64_t now_ns) {
  if (state->python != nullptr || state->maps_to_attach == nullptr ||
      now_ns < state->next_attach_ns) {
    return state->python.get();
  }
  state->next_attach_ns = now_ns + kAttachRetryNs;
  StatusOr<std::unique_ptr<PythonStackReader>> attached =
      PythonStackReader::Attach(static_cast<int>(state->pid), *state->maps_to_attach);
  if (!attached.ok()) return nullptr;
  state->python = std::move(attached).value();
  state->maps_to_attach.reset();
  const std::lock_guard<std::mutex> lock(mutex_);
  reads_[stream].interpreter = state->python->interpreter_path();
  return state->python.get();
}

void DrainTimeReads::ReadPythonStacks(uint64_t stream, Stream* state, uint64_t now_ns) {
  PythonStackReader* python = PythonOf(stream, state, now_ns);
  if (python == nullptr) return;
  for (const uint32_t tid : sampled_tids_) {
    uint64_t& last_read = state->stack_read_ns[tid];
    if (last_read != 0 && now_ns - last_read < kMinReadIntervalNs) continue;
    // Fails only when the process is gone; its address space's next read says so.
    if (!python->ReadStack(static_cast<int>(tid), &read_).ok()) return;
    last_read = now_ns;
    auto stack = std::make_shared<PythonStack>();
    stack->time_ns = protocol::MonotonicNowNs();
    stack->interpreter_path = python->interpreter_path();
    stack->frames = read_;
    const std::lock_guard<std::mutex> lock(mutex_);
    std::deque<std::shared_ptr<const PythonStack>>& reads = reads_[stream].stacks[tid];
    reads.push_back(std::move(stack));
    if (reads.size() > kMaxReadsPerThread) reads.pop_front();
  }
}

void DrainTimeReads::DescribeBacktraceFrames(uint64_t stream, Stream* state, uint64_t now_ns) {
  PythonStackReader* python = PythonOf(stream, state, now_ns);
  if (python == nullptr) return;
  PythonFrameText text;
  for (const Frame& frame : backtrace_frames_) {
    if (state->described.count(frame) != 0) continue;
    // A frame that cannot be described now is tried again when a record carries it again.
    if (!python->DescribeFrame(frame.code, frame.instruction, &text).ok()) continue;
    state->described.insert(frame);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (frames_described_ >= kMaxDescribedFrames) return;
    if (reads_[stream].frames.emplace(frame, text).second) ++frames_described_;
  }
}

std::shared_ptr<const symbols::ProcessMaps> DrainTimeReads::NewestMaps(uint64_t stream) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = reads_.find(stream);
  return found == reads_.end() ? nullptr : found->second.maps;
}

std::shared_ptr<const DrainTimeReads::PythonStack> DrainTimeReads::StackAt(uint64_t stream,
                                                                           uint32_t tid,
                                                                           uint64_t time_ns) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found_stream = reads_.find(stream);
  if (found_stream == reads_.end()) return nullptr;
  const auto found = found_stream->second.stacks.find(tid);
  if (found == found_stream->second.stacks.end()) return nullptr;
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

bool DrainTimeReads::DescribedFrame(uint64_t stream, uint64_t code, uint64_t instruction,
                                    PythonFrameText* text) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found_stream = reads_.find(stream);
  if (found_stream == reads_.end()) return false;
  const auto found = found_stream->second.frames.find(Frame{code, instruction});
  if (found == found_stream->second.frames.end()) return false;
  *text = found->second;
  return true;
}

std::string DrainTimeReads::InterpreterOf(uint64_t stream) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = reads_.find(stream);
  return found == reads_.end() ? std::string() : found->second.interpreter;
}

void DrainTimeReads::Forget(uint64_t stream) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = reads_.find(stream);
  if (found == reads_.end()) return;
  frames_described_ -= found->second.frames.size();
  reads_.erase(found);
}

void AdoptedMaps::Update(DrainTimeReads* reads, uint64_t stream, uint32_t pid,
                         SampleResolver* resolver) {
  std::shared_ptr<const symbols::ProcessMaps> newest = reads->NewestMaps(stream);
  std::weak_ptr<const symbols::ProcessMaps>& adopted = adopted_[pid];
  if (newest == nullptr || newest == adopted.lock()) return;
  resolver->AdoptMaps(pid, *newest);
  adopted = newest;
}

}  // namespace prof::collector
