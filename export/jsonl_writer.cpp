#include "export/jsonl_writer.h"

#include "export/json_text.h"

namespace prof::exporter {
namespace {

std::string_view TrackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::kProcess:
      return "process";
    case TrackKind::kThread:
      return "thread";
    case TrackKind::kGpu:
      return "gpu";
    case TrackKind::kGpuStream:
      return "gpu_stream";
  }
  return "";
}

}  // namespace

void JsonlWriter::AddTrack(const Track& track) {
  line_ = "{\"type\":\"track\",\"kind\":";
  AppendJsonString(TrackKindName(track.kind), &line_);
  line_ += ",\"pid\":" + std::to_string(track.pid) + ",\"tid\":" + std::to_string(track.tid);
  line_ += ",\"name\":";
  AppendJsonString(track.name, &line_);
  line_ += "}\n";
  out_->Append(line_);
}

void JsonlWriter::AddEvent(const TimelineEvent& event) {
  line_ = "{\"type\":\"event\",\"kind\":";
  AppendJsonString(EventKindName(event.kind), &line_);
  line_ += ",\"category\":";
  AppendJsonString(EventCategory(event.kind), &line_);
  line_ += ",\"pid\":" + std::to_string(event.pid) + ",\"tid\":" + std::to_string(event.tid);
  line_ += ",\"start_ns\":" + std::to_string(event.start_ns);
  line_ += ",\"end_ns\":" + std::to_string(event.end_ns);
  line_ += ",\"name\":";
  AppendJsonString(event.name, &line_);
  line_ += ",\"args\":";
  AppendJsonArgs(event.args, &line_);
  if (event.flow_id != 0) line_ += ",\"flow_id\":" + std::to_string(event.flow_id);
  line_ += "}\n";
  out_->Append(line_);
}

void JsonlWriter::AddCounter(const CounterSample& sample) {
  line_ = "{\"type\":\"counter\",\"pid\":" + std::to_string(sample.pid) + ",\"name\":";
  AppendJsonString(sample.name, &line_);
  line_ += ",\"time_ns\":" + std::to_string(sample.time_ns);
  line_ += ",\"value\":" + std::to_string(sample.value) + "}\n";
  out_->Append(line_);
}

}  // namespace prof::exporter
