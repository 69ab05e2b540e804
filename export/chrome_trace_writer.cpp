#include "export/chrome_trace_writer.h"

#include <cstdint>
#include <limits>

#include "export/json_text.h"

namespace prof::exporter {
namespace {

// end - start without signed overflow: a crafted report can hold any two int64 values, and a
// nonsense row must give a nonsense number, not undefined behaviour.
int64_t DurationNs(const TimelineEvent& event) {
  int64_t duration = 0;
  if (__builtin_sub_overflow(event.end_ns, event.start_ns, &duration)) {
    return event.end_ns < event.start_ns ? std::numeric_limits<int64_t>::min()
                                         : std::numeric_limits<int64_t>::max();
  }
  return duration;
}

constexpr std::string_view kFlowCategory = "cuda_flow";
constexpr std::string_view kFlowName = "launch";
constexpr std::string_view kCounterCategory = "counter";

}  // namespace

ChromeTraceWriter::ChromeTraceWriter(OutputStream* out) : out_(out) {
  out_->Append("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

void ChromeTraceWriter::AddTrack(const Track& track) {
  if (track.name.empty()) return;  // the viewer shows the pid or tid instead
  const bool is_process = track.kind == TrackKind::kProcess || track.kind == TrackKind::kGpu;
  line_.clear();
  line_ += is_process ? "{\"ph\":\"M\",\"name\":\"process_name\""
                      : "{\"ph\":\"M\",\"name\":\"thread_name\"";
  line_ += ",\"pid\":" + std::to_string(track.pid) + ",\"tid\":" + std::to_string(track.tid);
  line_ += ",\"args\":{\"name\":";
  AppendJsonString(track.name, &line_);
  line_ += '}';
  EndEvent();
}

void ChromeTraceWriter::AddEvent(const TimelineEvent& event) {
  const std::string_view category = EventCategory(event.kind);
  switch (event.kind) {
    case EventKind::kNvtxMark:
      BeginEvent('i', category, event.name, event.pid, event.tid, event.start_ns);
      line_ += ",\"s\":\"t\",\"args\":";
      AppendJsonArgs(event.args, &line_);
      EndEvent();
      return;
    case EventKind::kNvtxStartEnd:
    case EventKind::kPytorchModuleBackward: {
      const std::string id = std::to_string(next_async_id_++);
      BeginEvent('b', category, event.name, event.pid, event.tid, event.start_ns);
      line_ += ",\"id\":" + id + ",\"args\":";
      AppendJsonArgs(event.args, &line_);
      EndEvent();
      BeginEvent('e', category, event.name, event.pid, event.tid, event.end_ns);
      line_ += ",\"id\":" + id;
      EndEvent();
      return;
    }
    default:
      BeginEvent('X', category, event.name, event.pid, event.tid, event.start_ns);
      line_ += ",\"dur\":";
      AppendMicroseconds(DurationNs(event), &line_);
      line_ += ",\"args\":";
      AppendJsonArgs(event.args, &line_);
      EndEvent();
      if (event.flow_id != 0) AddFlow(event);
      return;
  }
}

void ChromeTraceWriter::AddCounter(const CounterSample& sample) {
  BeginEvent('C', kCounterCategory, sample.name, sample.pid, 0, sample.time_ns);
  line_ += ",\"args\":{\"value\":" + std::to_string(sample.value) + '}';
  EndEvent();
}

void ChromeTraceWriter::Finish() { out_->Append("\n]}\n"); }

// The flow starts at the API call ("s", inside the call's slice) and ends at the GPU operation
// ("f" with "bp":"e": bound to the slice that encloses its timestamp, the operation itself).
void ChromeTraceWriter::AddFlow(const TimelineEvent& event) {
  const bool at_gpu = IsGpuEvent(event.kind);
  BeginEvent(at_gpu ? 'f' : 's', kFlowCategory, kFlowName, event.pid, event.tid, event.start_ns);
  line_ += ",\"id\":" + std::to_string(event.flow_id);
  if (at_gpu) line_ += ",\"bp\":\"e\"";
  EndEvent();
}

void ChromeTraceWriter::BeginEvent(char phase, std::string_view category, std::string_view name,
                                   int64_t pid, int64_t tid, int64_t ts_ns) {
  line_.clear();
  line_ += "{\"ph\":\"";
  line_ += phase;
  line_ += "\",\"cat\":";
  AppendJsonString(category, &line_);
  line_ += ",\"name\":";
  AppendJsonString(name, &line_);
  line_ += ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":";
  AppendMicroseconds(ts_ns, &line_);
}

void ChromeTraceWriter::EndEvent() {
  line_ += '}';
  out_->Append(first_event_ ? "" : ",\n");
  first_event_ = false;
  out_->Append(line_);
}

}  // namespace prof::exporter
