// Writes a timeline as Trace Event Format JSON (the "JSON Object Format": {"traceEvents":[...]}),
// which Perfetto UI and chrome://tracing open. One event per line, written as it arrives.
//
// Mapping: a process/thread/GPU/stream track is a (pid, tid) named by process_name/thread_name
// metadata events; push/pop ranges, OS runtime and CUDA API calls and GPU operations are complete
// events ("X"), nested by time on their track; start/end ranges and PyTorch module backward slices
// are async events ("b"/"e", one id each) since they may overlap or cut across the nesting; marks are thread-scoped instants ("i"); a flow ("s" at the API
// call, "f" bound to the enclosing slice at each GPU operation) links launches to GPU work; counter
// samples are counter events ("C", one series "value") of their process. Times
// are microseconds with three decimals: nanosecond precision.
#pragma once

#include <cstdint>
#include <string>

#include "export/output_stream.h"
#include "export/timeline.h"

namespace prof::exporter {

class ChromeTraceWriter : public TimelineSink {
 public:
  explicit ChromeTraceWriter(OutputStream* out);

  void AddTrack(const Track& track) override;
  void AddEvent(const TimelineEvent& event) override;
  void AddCounter(const CounterSample& sample) override;
  void Finish() override;

 private:
  void BeginEvent(char phase, std::string_view category, std::string_view name, int64_t pid,
                  int64_t tid, int64_t ts_ns);
  void EndEvent();
  void AddFlow(const TimelineEvent& event);

  OutputStream* out_;
  std::string line_;  // the event being written, reused
  bool first_event_ = true;
  uint64_t next_async_id_ = 1;
};

}  // namespace prof::exporter
