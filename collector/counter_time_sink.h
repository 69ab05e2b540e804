// The first StreamSink of a session whose NVTX push/pop ranges are stamped in CPU counter ticks
// (InjectionSettings::nvtx_counter_time): turns each kNvtxPushPopRangeTicks record into the
// kNvtxPushPopRange record it stands for, its start and end on CLOCK_MONOTONIC
// (collector/counter_clock.h), and hands every record on to `next`. So the capture router and the
// trackers behind it see one clock and one kind of range. Single-threaded (the collector thread).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/counter_clock.h"
#include "collector/session_server.h"

namespace prof::collector {

class CounterTimeSink : public StreamSink {
 public:
  explicit CounterTimeSink(StreamSink* next, CounterClock::Sampler sample = protocol::SampleCounter)
      : next_(next), clock_(sample) {}

  void OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) override {
    next_->OnStreamStart(hello, process);
  }
  void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) override;
  void OnStreamEnd(const ProcessStream& process, const std::string& error) override {
    next_->OnStreamEnd(process, error);
  }
  void OnStreamRejected(const std::string& error) override { next_->OnStreamRejected(error); }

 private:
  StreamSink* next_;
  CounterClock clock_;
  std::vector<uint64_t> converted_;  // the record being handed on, 8-byte aligned
};

}  // namespace prof::collector
