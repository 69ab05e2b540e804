#include "export/perfetto_trace_writer.h"

#include <algorithm>

namespace prof::exporter {
namespace {

// Field numbers of perfetto.protos messages (protos/perfetto/trace/...).
namespace trace {
constexpr uint32_t kPacket = 1;
}
namespace packet {
constexpr uint32_t kTimestamp = 8;
constexpr uint32_t kTrustedPacketSequenceId = 10;
constexpr uint32_t kTrackEvent = 11;
constexpr uint32_t kInternedData = 12;
constexpr uint32_t kSequenceFlags = 13;
constexpr uint32_t kTrackDescriptor = 60;
constexpr uint32_t kPerfSample = 66;
// SequenceFlags
constexpr uint64_t kIncrementalStateCleared = 1;
constexpr uint64_t kNeedsIncrementalState = 2;
}  // namespace packet
namespace track_descriptor {
constexpr uint32_t kUuid = 1;
constexpr uint32_t kName = 2;
constexpr uint32_t kProcess = 3;
constexpr uint32_t kThread = 4;
constexpr uint32_t kParentUuid = 5;
constexpr uint32_t kCounter = 8;
}  // namespace track_descriptor
namespace process_descriptor {
constexpr uint32_t kPid = 1;
constexpr uint32_t kProcessName = 6;
}  // namespace process_descriptor
namespace thread_descriptor {
constexpr uint32_t kPid = 1;
constexpr uint32_t kTid = 2;
constexpr uint32_t kThreadName = 5;
}  // namespace thread_descriptor
namespace track_event {
constexpr uint32_t kCategoryIids = 3;
constexpr uint32_t kDebugAnnotations = 4;
constexpr uint32_t kType = 9;
constexpr uint32_t kNameIid = 10;
constexpr uint32_t kTrackUuid = 11;
constexpr uint32_t kCounterValue = 30;
constexpr uint32_t kFlowIds = 47;
// Type
constexpr uint64_t kSliceBegin = 1;
constexpr uint64_t kSliceEnd = 2;
constexpr uint64_t kInstant = 3;
constexpr uint64_t kCounter = 4;
}  // namespace track_event
namespace debug_annotation {
constexpr uint32_t kNameIid = 1;
constexpr uint32_t kIntValue = 4;
constexpr uint32_t kStringValue = 6;
}  // namespace debug_annotation
namespace interned_data {
constexpr uint32_t kEventCategories = 1;
constexpr uint32_t kEventNames = 2;
constexpr uint32_t kDebugAnnotationNames = 3;
constexpr uint32_t kFunctionNames = 5;
constexpr uint32_t kFrames = 6;
constexpr uint32_t kCallstacks = 7;
constexpr uint32_t kMappingPaths = 17;
constexpr uint32_t kMappings = 19;
}  // namespace interned_data
// protos/perfetto/trace/profiling/profile_common.proto
namespace mapping {
constexpr uint32_t kIid = 1;
constexpr uint32_t kPathStringIds = 7;
}  // namespace mapping
namespace frame {
constexpr uint32_t kIid = 1;
constexpr uint32_t kFunctionNameId = 2;
constexpr uint32_t kMappingId = 3;
constexpr uint32_t kRelPc = 4;
constexpr uint32_t kKind = 7;
// Kind
constexpr uint64_t kNative = 1;
constexpr uint64_t kInterpreted = 3;
}  // namespace frame
namespace callstack {
constexpr uint32_t kIid = 1;
constexpr uint32_t kFrameIds = 2;
}  // namespace callstack
// protos/perfetto/trace/profiling/profile_packet.proto
namespace perf_sample {
constexpr uint32_t kCpu = 1;
constexpr uint32_t kPid = 2;
constexpr uint32_t kTid = 3;
constexpr uint32_t kCallstackIid = 4;
}  // namespace perf_sample
// EventName, EventCategory and DebugAnnotationName share this layout.
namespace interned_string {
constexpr uint32_t kIid = 1;
constexpr uint32_t kName = 2;
}  // namespace interned_string

// Every packet is on this one sequence: interned ids are valid on it only.
constexpr uint64_t kSequenceId = 1;

// Names of the child tracks a thread gets for calls, and a process for start/end ranges.
constexpr std::string_view kCudaApiTrackName = "CUDA API";
constexpr std::string_view kOsRuntimeTrackName = "OS runtime";
constexpr std::string_view kNvtxStartEndTrackName = "NVTX start/end";
constexpr std::string_view kModuleBackwardTrackName = "PyTorch module backward";

}  // namespace

PerfettoTraceWriter::PerfettoTraceWriter(OutputStream* out) : out_(out) {
  // The sequence's first packet clears the incremental state (the interning tables).
  packet_.Clear();
  packet_.AddVarint(packet::kTrustedPacketSequenceId, kSequenceId);
  packet_.AddVarint(packet::kSequenceFlags, packet::kIncrementalStateCleared);
  WritePacket(packet_);
}

void PerfettoTraceWriter::AddTrack(const Track& track) {
  const uint64_t uuid = next_uuid_++;
  track_uuids_[TrackKey{track.pid, track.tid, Subtrack::kMain, 0}] = uuid;
  ProtoMessage descriptor, owner;
  descriptor.AddVarint(track_descriptor::kUuid, uuid);
  if (track.kind == TrackKind::kProcess || track.kind == TrackKind::kGpu) {
    owner.AddInt64(process_descriptor::kPid, track.pid);
    if (!track.name.empty()) owner.AddBytes(process_descriptor::kProcessName, track.name);
    descriptor.AddMessage(track_descriptor::kProcess, owner);
  } else {
    owner.AddInt64(thread_descriptor::kPid, track.pid);
    owner.AddInt64(thread_descriptor::kTid, track.tid);
    if (!track.name.empty()) owner.AddBytes(thread_descriptor::kThreadName, track.name);
    descriptor.AddMessage(track_descriptor::kThread, owner);
  }
  packet_.Clear();
  packet_.AddVarint(packet::kTrustedPacketSequenceId, kSequenceId);
  packet_.AddMessage(packet::kTrackDescriptor, descriptor);
  WritePacket(packet_);
}

void PerfettoTraceWriter::AddEvent(const TimelineEvent& event) {
  const uint64_t track = TrackFor(event);
  event_.Clear();
  const bool is_instant = event.kind == EventKind::kNvtxMark;
  event_.AddVarint(track_event::kType,
                   is_instant ? track_event::kInstant : track_event::kSliceBegin);
  event_.AddVarint(track_event::kTrackUuid, track);
  event_.AddVarint(track_event::kNameIid,
                   Intern(&event_names_, interned_data::kEventNames, event.name));
  event_.AddVarint(track_event::kCategoryIids, Intern(&categories_, interned_data::kEventCategories,
                                                      EventCategory(event.kind)));
  for (const EventArg& arg : event.args) {
    scratch_.Clear();
    scratch_.AddVarint(debug_annotation::kNameIid,
                       Intern(&annotation_names_, interned_data::kDebugAnnotationNames, arg.key));
    if (arg.is_text) {
      scratch_.AddBytes(debug_annotation::kStringValue, arg.text);
    } else {
      scratch_.AddInt64(debug_annotation::kIntValue, arg.number);
    }
    event_.AddMessage(track_event::kDebugAnnotations, scratch_);
  }
  // The call and each of its GPU operations carry the flow id; the earliest event (the call)
  // becomes the source, so a call that launched several operations links to all of them in turn.
  if (event.flow_id != 0) event_.AddFixed64(track_event::kFlowIds, event.flow_id);
  WriteEvent(event.start_ns, event_, true);
  if (is_instant) return;
  event_.Clear();
  event_.AddVarint(track_event::kType, track_event::kSliceEnd);
  event_.AddVarint(track_event::kTrackUuid, track);
  WriteEvent(event.end_ns, event_, false);
}

uint64_t PerfettoTraceWriter::TrackFor(const TimelineEvent& event) {
  const uint64_t thread = track_uuids_[TrackKey{event.pid, event.tid, Subtrack::kMain, 0}];
  switch (event.kind) {
    case EventKind::kCudaApi:
      return ChildTrack({event.pid, event.tid, Subtrack::kCudaApi, 0}, thread, kCudaApiTrackName);
    case EventKind::kOsRuntime:
      return ChildTrack({event.pid, event.tid, Subtrack::kOsRuntime, 0}, thread,
                        kOsRuntimeTrackName);
    case EventKind::kPytorchModuleBackward:
      return ChildTrack({event.pid, event.tid, Subtrack::kModuleBackward, 0}, thread,
                        kModuleBackwardTrackName);
    case EventKind::kNvtxStartEnd: {
      const size_t lane = LaneFor(event.pid, event.start_ns, event.end_ns);
      const uint64_t process = track_uuids_[TrackKey{event.pid, 0, Subtrack::kMain, 0}];
      return ChildTrack({event.pid, 0, Subtrack::kNvtxStartEndLane, lane}, process,
                        kNvtxStartEndTrackName);
    }
    default:
      return thread;
  }
}

void PerfettoTraceWriter::AddCounter(const CounterSample& sample) {
  auto [number, added] =
      counter_numbers_.emplace(std::make_pair(sample.pid, std::string(sample.name)), 0);
  if (added) number->second = counter_numbers_.size();
  const uint64_t process = track_uuids_[TrackKey{sample.pid, 0, Subtrack::kMain, 0}];
  const uint64_t track =
      ChildTrack({sample.pid, 0, Subtrack::kCounter, number->second}, process, sample.name, true);
  event_.Clear();
  event_.AddVarint(track_event::kType, track_event::kCounter);
  event_.AddVarint(track_event::kTrackUuid, track);
  event_.AddInt64(track_event::kCounterValue, sample.value);
  WriteEvent(sample.time_ns, event_, false);
}

uint64_t PerfettoTraceWriter::ChildTrack(const TrackKey& key, uint64_t parent_uuid,
                                         std::string_view name, bool is_counter) {
  auto [track, added] = track_uuids_.emplace(key, 0);
  if (!added) return track->second;
  track->second = next_uuid_++;
  ProtoMessage descriptor;
  descriptor.AddVarint(track_descriptor::kUuid, track->second);
  descriptor.AddVarint(track_descriptor::kParentUuid, parent_uuid);
  descriptor.AddBytes(track_descriptor::kName, name);
  if (is_counter) descriptor.AddMessage(track_descriptor::kCounter, ProtoMessage());
  packet_.Clear();
  packet_.AddVarint(packet::kTrustedPacketSequenceId, kSequenceId);
  packet_.AddMessage(packet::kTrackDescriptor, descriptor);
  WritePacket(packet_);
  return track->second;
}

// Start/end ranges arrive in start order, so the first lane whose last range has ended is free.
size_t PerfettoTraceWriter::LaneFor(int64_t pid, int64_t start_ns, int64_t end_ns) {
  std::vector<int64_t>& ends = lane_ends_[pid];
  size_t lane = 0;
  while (lane < ends.size() && ends[lane] > start_ns) ++lane;
  if (lane == ends.size()) ends.push_back(end_ns);
  ends[lane] = end_ns;
  return lane;
}

void PerfettoTraceWriter::AddCpuSample(const CpuSample& sample) {
  if (sample.frames.empty()) return;  // a PerfSample without a callstack draws nothing
  const uint64_t callstack = InternCallstack(sample);
  ProtoMessage perf;
  perf.AddVarint(perf_sample::kCpu, static_cast<uint64_t>(sample.cpu));
  perf.AddVarint(perf_sample::kPid, static_cast<uint64_t>(sample.pid));
  perf.AddVarint(perf_sample::kTid, static_cast<uint64_t>(sample.tid));
  perf.AddVarint(perf_sample::kCallstackIid, callstack);
  packet_.Clear();
  packet_.AddInt64(packet::kTimestamp, sample.time_ns);
  packet_.AddVarint(packet::kTrustedPacketSequenceId, kSequenceId);
  packet_.AddVarint(packet::kSequenceFlags, packet::kNeedsIncrementalState);
  if (!interned_.empty()) {
    packet_.AddMessage(packet::kInternedData, interned_);
    interned_.Clear();
  }
  packet_.AddMessage(packet::kPerfSample, perf);
  WritePacket(packet_);
}

// A mapping named by its path's components ("/usr/lib/libc.so.6": "usr", "lib", "libc.so.6"), as
// Perfetto joins them back with '/'.
uint64_t PerfettoTraceWriter::InternMapping(std::string_view path) {
  auto found = mappings_.find(path);
  if (found != mappings_.end()) return found->second;
  ProtoMessage entry;
  const uint64_t iid = mappings_.size() + 1;
  entry.AddVarint(mapping::kIid, iid);
  size_t begin = 0;
  while (begin <= path.size()) {
    const size_t slash = std::min(path.find('/', begin), path.size());
    if (slash > begin) {
      entry.AddVarint(mapping::kPathStringIds, Intern(&path_parts_, interned_data::kMappingPaths,
                                                      path.substr(begin, slash - begin)));
    }
    begin = slash + 1;
  }
  mappings_.emplace(std::string(path), iid);
  interned_.AddMessage(interned_data::kMappings, entry);
  return iid;
}

uint64_t PerfettoTraceWriter::InternFrame(const StackFrame& stack_frame) {
  const uint64_t name =
      Intern(&function_names_, interned_data::kFunctionNames, FrameLabel(stack_frame));
  const uint64_t mapping = InternMapping(stack_frame.module);
  auto [found, added] = frames_.emplace(std::make_tuple(name, mapping, stack_frame.is_python), 0);
  if (!added) return found->second;
  found->second = frames_.size();
  ProtoMessage entry;
  entry.AddVarint(frame::kIid, found->second);
  entry.AddVarint(frame::kFunctionNameId, name);
  entry.AddVarint(frame::kMappingId, mapping);
  entry.AddVarint(frame::kRelPc, 0);
  entry.AddVarint(frame::kKind, stack_frame.is_python ? frame::kInterpreted : frame::kNative);
  interned_.AddMessage(interned_data::kFrames, entry);
  return found->second;
}

uint64_t PerfettoTraceWriter::InternCallstack(const CpuSample& sample) {
  frame_ids_.clear();
  for (const StackFrame& stack_frame : sample.frames)
    frame_ids_.push_back(InternFrame(stack_frame));
  auto [found, added] = callstacks_.emplace(frame_ids_, 0);
  if (!added) return found->second;
  found->second = callstacks_.size();
  ProtoMessage entry;
  entry.AddVarint(callstack::kIid, found->second);
  for (uint64_t id : frame_ids_) entry.AddVarint(callstack::kFrameIds, id);
  interned_.AddMessage(interned_data::kCallstacks, entry);
  return found->second;
}

// The interned id of `text`, adding it to the packet being written when it is new.
uint64_t PerfettoTraceWriter::Intern(std::map<std::string, uint64_t, std::less<>>* table,
                                     uint32_t interned_field, std::string_view text) {
  auto found = table->find(text);
  if (found != table->end()) return found->second;
  const uint64_t iid = table->size() + 1;  // 0 means "not set"
  table->emplace(std::string(text), iid);
  ProtoMessage entry;
  entry.AddVarint(interned_string::kIid, iid);
  entry.AddBytes(interned_string::kName, text);
  interned_.AddMessage(interned_field, entry);
  return iid;
}

void PerfettoTraceWriter::WriteEvent(int64_t ts_ns, const ProtoMessage& track_event,
                                     bool track_event_uses_interning) {
  packet_.Clear();
  packet_.AddInt64(packet::kTimestamp, ts_ns);
  packet_.AddVarint(packet::kTrustedPacketSequenceId, kSequenceId);
  // Only events that refer to interned names need the flag (slice ends do not: 2 bytes each).
  if (track_event_uses_interning) {
    packet_.AddVarint(packet::kSequenceFlags, packet::kNeedsIncrementalState);
  }
  if (!interned_.empty()) {
    packet_.AddMessage(packet::kInternedData, interned_);
    interned_.Clear();
  }
  packet_.AddMessage(packet::kTrackEvent, track_event);
  WritePacket(packet_);
}

void PerfettoTraceWriter::WritePacket(const ProtoMessage& packet) {
  framed_.Clear();
  framed_.AddMessage(trace::kPacket, packet);
  out_->Append(framed_.bytes());
}

}  // namespace prof::exporter
