// Writes a timeline as a Perfetto protobuf trace (a Trace message: repeated TracePacket), encoded
// by prof from Perfetto's public trace proto definitions; Perfetto UI and trace_processor open it.
//
// Mapping: one TrackDescriptor per process, thread, GPU (a process track) and GPU stream (a thread
// track of its GPU), emitted before their events. Slices are TrackEvent BEGIN/END pairs, marks
// INSTANT events. Slices on one track must nest, so each thread's CUDA API and OS runtime calls
// get child tracks of the thread ("CUDA API", "OS runtime", "PyTorch module backward": those slices
// are derived from the operator ranges and may cut across them), and NVTX start/end ranges, which may
// overlap, are spread over as few "NVTX start/end" child tracks of their process as keep them
// apart. A counter is a counter track (a child of its process) with one COUNTER event per sample.
// A launch and its GPU operations share one flow id. Event names, categories and argument
// names are interned on the one packet sequence, which keeps the trace several times smaller than
// the JSON. CPU samples are PerfSample packets (pid, tid, cpu, a callstack): their function
// names, mappings (a frame's binary or Python file, split into path components), frames and
// callstacks (outermost frame first) are interned on the same sequence, so the Perfetto UI draws
// them per thread and as flame graphs. A frame is one per (function, mapping, native or Python):
// rel_pc is 0 and a Python frame's line is not written, so that a function is one node of the
// flame graph; Frame.kind tells native (1) from interpreted (3) frames.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "export/output_stream.h"
#include "export/protobuf_writer.h"
#include "export/timeline.h"

namespace prof::exporter {

class PerfettoTraceWriter : public TimelineSink {
 public:
  explicit PerfettoTraceWriter(OutputStream* out);

  void AddTrack(const Track& track) override;
  void AddEvent(const TimelineEvent& event) override;
  void AddCounter(const CounterSample& sample) override;
  void AddCpuSample(const CpuSample& sample) override;
  void Finish() override {}

 private:
  // Which track of a (pid, tid): the main one, or a child track of it.
  enum class Subtrack { kMain, kCudaApi, kOsRuntime, kModuleBackward, kNvtxStartEndLane, kCounter };
  using TrackKey = std::tuple<int64_t, int64_t, Subtrack, size_t>;  // last: lane number

  uint64_t TrackFor(const TimelineEvent& event);
  uint64_t ChildTrack(const TrackKey& key, uint64_t parent_uuid, std::string_view name,
                      bool is_counter = false);
  size_t LaneFor(int64_t pid, int64_t start_ns, int64_t end_ns);
  uint64_t Intern(std::map<std::string, uint64_t, std::less<>>* table, uint32_t interned_field,
                  std::string_view text);
  uint64_t InternMapping(std::string_view path);
  uint64_t InternFrame(const StackFrame& frame);
  uint64_t InternCallstack(const CpuSample& sample);
  void WriteEvent(int64_t ts_ns, const ProtoMessage& track_event, bool track_event_uses_interning);
  void WritePacket(const ProtoMessage& packet);

  OutputStream* out_;
  std::map<TrackKey, uint64_t> track_uuids_;
  std::map<std::pair<int64_t, std::string>, size_t> counter_numbers_;  // (pid, name) -> lane
  uint64_t next_uuid_ = 1;
  // End times of each process's NVTX start/end lanes (a lane is free once its last range ended).
  std::map<int64_t, std::vector<int64_t>> lane_ends_;
  std::map<std::string, uint64_t, std::less<>> event_names_, categories_, annotation_names_;
  // The interned pieces of CPU samples' stacks.
  std::map<std::string, uint64_t, std::less<>> function_names_, path_parts_, mappings_;
  std::map<std::tuple<uint64_t, uint64_t, bool>, uint64_t> frames_;  // (name, mapping, python)
  std::map<std::vector<uint64_t>, uint64_t> callstacks_;             // frame iids, outermost first
  std::vector<uint64_t> frame_ids_;                                  // reused
  ProtoMessage interned_;                           // names first used by the event being written
  ProtoMessage event_, packet_, scratch_, framed_;  // reused buffers
};

}  // namespace prof::exporter
