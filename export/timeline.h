// The timeline an export writes, independent of the output format: tracks (processes, threads,
// GPUs and their streams) and events on them, as timeline_reader produces them from a report and
// the format writers (chrome, jsonl, perfetto) consume them.
//
// Contract: the reader announces every track with AddTrack before any event, and events table by
// table, each table in start-time order (not one global order). The strings and args an event
// points to are valid only during the AddEvent call, so writers copy what they keep.
//
// Adding an event source: add an EventKind with its category, and read its table in
// timeline_reader.cpp; the writers need no change. Counters (values over time, not events) go
// through AddCounter, CPU samples with their call stacks through AddCpuSample (after every event;
// formats that cannot show stacks ignore them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace prof::exporter {

// A track is identified the way Trace Event Format identifies one: (pid, tid). Threads use the
// report's pid and tid; a GPU is a pseudo-process kGpuPidBase + deviceId (above any 24-bit pid)
// and its streams are pseudo-threads kGpuStreamTidBase + 1, + 2, ... of it, numbered across all
// GPUs: viewers (Perfetto among them) key threads by tid, so a tid must not repeat.
enum class TrackKind { kProcess, kThread, kGpu, kGpuStream };

inline constexpr int64_t kGpuPidBase = int64_t{1} << 24;
inline constexpr int64_t kGpuStreamTidBase = int64_t{1} << 25;

struct Track {
  TrackKind kind = TrackKind::kThread;
  int64_t pid = 0;
  int64_t tid = 0;   // 0 for processes and GPUs
  std::string name;  // may be empty (a thread without a recorded name)
};

enum class EventKind {
  kNvtxPushPop,   // NVTX push/pop range: a slice that nests on its thread
  kNvtxStartEnd,  // NVTX start/end range: may overlap others, so an async slice of the process
  kNvtxMark,      // NVTX mark: an instant on its thread
  kOsRuntime,     // OS runtime call on its thread
  kCudaApi,       // CUDA runtime or driver API call on its thread
  kGpuKernel,     // the GPU operations, on their stream's track
  kGpuMemcpy,
  kGpuMemset,
  kGpuGraph,  // a whole CUDA graph launch (graphs traced as a whole, not node by node)
  // A run of one module's backward nodes on a thread, its child modules' included (--pytorch;
  // export/sql/pytorch_module_backward.sql): derived from the operator ranges, so it may cut
  // across their nesting; such slices nest among themselves.
  kPytorchModuleBackward,
};

// The category written with each event ("cat" in Trace Event Format).
constexpr std::string_view EventCategory(EventKind kind) {
  switch (kind) {
    case EventKind::kNvtxPushPop:
    case EventKind::kNvtxStartEnd:
    case EventKind::kNvtxMark:
      return "nvtx";
    case EventKind::kOsRuntime:
      return "osrt";
    case EventKind::kCudaApi:
      return "cuda_api";
    case EventKind::kGpuKernel:
      return "cuda_kernel";
    case EventKind::kGpuMemcpy:
      return "cuda_memcpy";
    case EventKind::kGpuMemset:
      return "cuda_memset";
    case EventKind::kGpuGraph:
      return "cuda_graph";
    case EventKind::kPytorchModuleBackward:
      return "pytorch";
  }
  return "";
}

// Whether events of the kind lie on a GPU stream's track.
constexpr bool IsGpuEvent(EventKind kind) {
  return kind == EventKind::kGpuKernel || kind == EventKind::kGpuMemcpy ||
         kind == EventKind::kGpuMemset || kind == EventKind::kGpuGraph;
}

// The kind's name in the jsonl export ("kernel", "nvtx_push_pop", ...).
constexpr std::string_view EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kNvtxPushPop:
      return "nvtx_push_pop";
    case EventKind::kNvtxStartEnd:
      return "nvtx_start_end";
    case EventKind::kNvtxMark:
      return "nvtx_mark";
    case EventKind::kOsRuntime:
      return "osrt";
    case EventKind::kCudaApi:
      return "cuda_api";
    case EventKind::kGpuKernel:
      return "kernel";
    case EventKind::kGpuMemcpy:
      return "memcpy";
    case EventKind::kGpuMemset:
      return "memset";
    case EventKind::kGpuGraph:
      return "graph";
    case EventKind::kPytorchModuleBackward:
      return "pytorch_module_backward";
  }
  return "";
}

struct EventArg {
  std::string_view key;
  bool is_text = false;
  int64_t number = 0;
  std::string_view text;
};

struct TimelineEvent {
  EventKind kind = EventKind::kNvtxPushPop;
  int64_t pid = 0;  // the track (see Track)
  int64_t tid = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;  // equals start_ns for marks
  std::string_view name;
  std::vector<EventArg> args;
  // Links a CUDA API call to the GPU operations it launched: the same non-zero id on the call
  // (where the flow starts) and on each of its operations (where it ends). 0: no flow.
  uint64_t flow_id = 0;
};

// One value of a counter drawn on a process track (the GPU's allocated device memory, from
// CUDA_GPU_MEMORY_USAGE_EVENTS; a GPU metric, from GPU_METRICS, named as the report names the
// metric): `value` holds from time_ns until the counter's next sample.
inline constexpr std::string_view kGpuMemoryCounterName = "Device memory allocated (bytes)";

struct CounterSample {
  int64_t pid = 0;  // the process track (a GPU: kGpuPidBase + deviceId)
  std::string_view name;
  int64_t time_ns = 0;
  int64_t value = 0;
};

// A frame of a sampled call stack (SAMPLING_CALLCHAINS).
struct StackFrame {
  std::string_view function;  // symbol: a function name, or the hex address when unresolved
  std::string_view module;    // the binary's path, or a Python frame's source file
  bool is_python = false;     // prof's Python frame (unwindMethod 1001)
  bool unresolved = false;
  int64_t address_or_line = 0;  // originalIP: the instruction pointer, a Python frame's line
};

// How a frame is named in flame graphs: a Python frame as py-spy and speedscope name it, with its
// file's base name and line ("Trainer.step (train.py:20)"; no line when it has none), any other
// frame by its function alone.
inline std::string FrameLabel(const StackFrame& frame) {
  std::string label(frame.function);
  if (!frame.is_python) return label;
  const size_t slash = frame.module.rfind('/');
  label += " (";
  label += slash == std::string_view::npos ? frame.module : frame.module.substr(slash + 1);
  if (frame.address_or_line > 0) label += ":" + std::to_string(frame.address_or_line);
  return label + ")";
}

// One CPU sample of a thread (COMPOSITE_EVENTS) with its stack.
struct CpuSample {
  int64_t pid = 0;
  int64_t tid = 0;
  int64_t time_ns = 0;
  int64_t cpu = 0;
  std::vector<StackFrame> frames;  // outermost first; empty for a sample without a stack
};

class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  // False for a sink that uses only the tracks and CPU samples (the folded stacks): the reader
  // then skips the event and counter tables.
  virtual bool TakesEvents() const { return true; }
  virtual void AddTrack(const Track& track) = 0;
  virtual void AddEvent(const TimelineEvent& event) = 0;
  // Samples of one counter come in time order, after every track was announced.
  virtual void AddCounter(const CounterSample& sample) = 0;
  // Samples come in time order, after every event and counter; the frames' text is valid only
  // during the call. Formats without call stacks ignore them.
  virtual void AddCpuSample(const CpuSample& /*sample*/) {}
  // After the last event: completes the output. Errors of the output itself surface when the
  // caller closes its OutputStream.
  virtual void Finish() = 0;
};

}  // namespace prof::exporter
