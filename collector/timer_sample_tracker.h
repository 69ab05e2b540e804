// CPU samples the program took of itself (kCpuSample, libprof_core's own sampler: every process
// when perf_event_open is refused, and the processes that run CPython): each well-formed record
// becomes one RawCpuSample for the CpuSampleSink, which turns samples into rows whichever way they
// were taken.
//
// A record must be exactly what protocol::CpuSampleFramed says (its native and Python frames
// within their limits); anything else is skipped and counted (malformed_records).
// Without a sink, samples are only counted. Collector thread only, like every tracker.
#pragma once

#include <cstdint>
#include <vector>

#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "collector/sample_sink.h"

namespace prof::collector {

class TimerSampleTracker {
 public:
  explicit TimerSampleTracker(CpuSampleSink* sink) : sink_(sink) {}
  void RegisterHandlers(RecordDispatcher* dispatcher);

  uint64_t samples() const { return samples_; }
  uint64_t malformed_records() const { return malformed_records_; }

 private:
  void OnSample(const ProcessStream& process, const protocol::RecordHeader& record);

  CpuSampleSink* sink_;
  uint64_t samples_ = 0;
  uint64_t malformed_records_ = 0;
  std::vector<uint64_t> words_;  // the current sample's frames and Python pairs, reused
};

}  // namespace prof::collector
