#include "export/folded_stack_writer.h"

#include <string_view>
#include <utility>

namespace prof::exporter {
namespace {

// `text` with the characters that would split a line or a frame replaced.
void AppendName(std::string_view text, std::string* out) {
  for (char c : text) {
    if (c == ';') {
      *out += ':';
    } else if (c == '\n' || c == '\r') {
      *out += ' ';
    } else {
      *out += c;
    }
  }
}

std::string Label(std::string_view name, std::string_view fallback, int64_t id) {
  std::string label;
  AppendName(name.empty() ? fallback : name, &label);
  return label + " (" + std::to_string(id) + ")";
}

}  // namespace

void FoldedStackWriter::AddTrack(const Track& track) {
  if (track.kind == TrackKind::kProcess) {
    process_labels_[track.pid] = Label(track.name, "process", track.pid);
  } else if (track.kind == TrackKind::kThread) {
    thread_labels_[{track.pid, track.tid}] = Label(track.name, "thread", track.tid);
  }
}

void FoldedStackWriter::AddCpuSample(const CpuSample& sample) {
  line_.clear();
  auto process = process_labels_.find(sample.pid);
  line_ += process != process_labels_.end() ? process->second : Label("", "process", sample.pid);
  line_ += ';';
  auto thread = thread_labels_.find({sample.pid, sample.tid});
  line_ += thread != thread_labels_.end() ? thread->second : Label("", "thread", sample.tid);
  for (const StackFrame& frame : sample.frames) {
    line_ += ';';
    AppendName(FrameLabel(frame), &line_);
  }
  ++counts_[line_];
}

void FoldedStackWriter::Finish() {
  for (const auto& [stack, count] : counts_) {
    out_->Append(stack);
    out_->Append(" " + std::to_string(count) + "\n");
  }
}

}  // namespace prof::exporter
