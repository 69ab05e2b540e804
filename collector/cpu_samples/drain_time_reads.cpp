#include "collector/cpu_samples/drain_time_reads.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/sample_records.h"

namespace prof::collector {
namespace {

// The Python frames a record carries, as (code, instruction) pairs at its end; empty for a record
// of another kind, or one whose framing the collector counts as malformed.
std::pair<const char*, size_t> PythonPairsOf(const protocol::RecordHeader& header,
                                             const char* record) {
  if (header.kind == protocol::RecordKind::kCpuSample &&
      header.size >= sizeof(protocol::CpuSampleRecord)) {
    protocol::CpuSampleRecord sample;
    std::memcpy(&sample, record, sizeof(sample));
    if (!protocol::CpuSampleFramed(sample)) return {nullptr, 0};
    return {record + sizeof(sample) + sample.frame_count * sizeof(uint64_t),
            sample.python_frame_count};
  }
  if (header.kind == protocol::RecordKind::kOsrtCall &&
      header.size > sizeof(protocol::OsrtCallRecord)) {
    protocol::OsrtCallRecord call;
    std::memcpy(&call, record, sizeof(call));
    if (!protocol::OsrtCallFramed(call)) return {nullptr, 0};
    return {record + header.size - call.python_frame_count * protocol::kOsrtPythonFrameBytes,
            call.python_frame_count};
  }
  return {nullptr, 0};
}

}  // namespace

void DrainTimeReads::OnStreamConnected(uint64_t stream, uint32_t pid) {
  Stream& state = streams_[stream];
  state.pid = pid;
  ReadMaps(stream, &state, protocol::MonotonicNowNs());
}

void DrainTimeReads::OnRingRecords(uint64_t stream, uint32_t pid, const char* records,
                                   size_t size) {
  python_frames_.clear();
  bool named_stacks = false;  // samples and backtraces: their native frames need the maps
  for (size_t offset = 0; size - offset >= sizeof(protocol::RecordHeader);) {
    protocol::RecordHeader header;
    std::memcpy(&header, records + offset, sizeof(header));
    if (header.size < sizeof(header) || header.size > size - offset) break;
    const char* record = records + offset;
    offset += header.size;
    if (header.kind == protocol::RecordKind::kCpuSample) named_stacks = true;
    const auto [pairs, count] = PythonPairsOf(header, record);
    if (header.kind == protocol::RecordKind::kOsrtCall && pairs != nullptr) named_stacks = true;
    for (size_t i = 0; i < count; ++i) {
      Frame frame;
      std::memcpy(&frame.code, pairs + i * 2 * sizeof(uint64_t), sizeof(uint64_t));
      std::memcpy(&frame.instruction, pairs + (i * 2 + 1) * sizeof(uint64_t), sizeof(uint64_t));
      python_frames_.push_back(frame);
    }
  }
  if (!named_stacks) return;
  Stream& state = streams_[stream];
  state.pid = pid;
  const uint64_t now = protocol::MonotonicNowNs();
  if (!ReadMaps(stream, &state, now)) return;  // gone: its rings' last records follow
  if (!python_frames_.empty()) DescribePythonFrames(stream, &state, now);
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

void DrainTimeReads::DescribePythonFrames(uint64_t stream, Stream* state, uint64_t now_ns) {
  PythonStackReader* python = PythonOf(stream, state, now_ns);
  if (python == nullptr) return;
  PythonFrameText text;
  for (const Frame& frame : python_frames_) {
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
