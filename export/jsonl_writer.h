// Writes a timeline as JSON Lines for scripts: one object per line, tracks first, then events,
// times as integer nanoseconds.
//
//   {"type":"track","kind":"thread","pid":100,"tid":1,"name":"main"}
//   {"type":"event","kind":"kernel","category":"cuda_kernel","pid":16777216,"tid":33554433,
//    "start_ns":1000,"end_ns":1100,"name":"kern_a(int)","args":{...},"flow_id":1}
//
// "flow_id" appears only on CUDA API calls that launched GPU work and on that work.
#pragma once

#include <string>

#include "export/output_stream.h"
#include "export/timeline.h"

namespace prof::exporter {

class JsonlWriter : public TimelineSink {
 public:
  explicit JsonlWriter(OutputStream* out) : out_(out) {}

  void AddTrack(const Track& track) override;
  void AddEvent(const TimelineEvent& event) override;
  void AddCounter(const CounterSample& sample) override;
  void Finish() override {}

 private:
  OutputStream* out_;
  std::string line_;  // reused
};

}  // namespace prof::exporter
