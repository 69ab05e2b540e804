#include "collector/timer_sample_tracker.h"

#include <cstring>

#include "injection/protocol/sample_records.h"

namespace prof::collector {

void TimerSampleTracker::RegisterHandlers(RecordDispatcher* dispatcher) {
  dispatcher->Register(protocol::RecordKind::kCpuSample, sizeof(protocol::CpuSampleRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnSample(process, record);
                       });
}

void TimerSampleTracker::OnSample(const ProcessStream& process,
                                  const protocol::RecordHeader& record) {
  protocol::CpuSampleRecord sample;
  std::memcpy(&sample, &record, sizeof(sample));
  if (!protocol::CpuSampleFramed(sample)) {
    ++malformed_records_;
    return;
  }
  samples_ += sample.periods;
  if (sink_ == nullptr) return;
  // The frames and registers follow the fixed struct; copied out rather than read in place,
  // which would rely on the decoder's buffer keeping records 8-aligned. The stack copy is bytes,
  // read in place.
  const size_t register_words = sample.stack_bytes != 0 ? protocol::kSampleRegisterCount : 0;
  const size_t frame_words = sample.frame_count + size_t{2} * sample.python_frame_count;
  std::vector<uint64_t>& words = words_;
  words.resize(frame_words + register_words);
  const char* const after_fixed = reinterpret_cast<const char*>(&record) + sizeof(sample);
  if (!words.empty()) std::memcpy(words.data(), after_fixed, words.size() * sizeof(uint64_t));
  RawCpuSample raw;
  raw.stream = process.stream_id;
  raw.pid = process.pid;
  raw.tid = sample.header.tid;
  raw.cpu = sample.cpu;
  raw.time_ns = sample.header.timestamp_ns;
  raw.ips = words.data();
  raw.ip_count = sample.frame_count;
  raw.truncated = sample.truncated != 0;
  raw.python_pairs = words.data() + sample.frame_count;
  raw.python_count = sample.python_frame_count;
  if (sample.stack_bytes != 0) {
    raw.registers = words.data() + frame_words;
    raw.stack = reinterpret_cast<const uint8_t*>(after_fixed) + words.size() * sizeof(uint64_t);
    raw.stack_size = sample.stack_bytes;
  }
  raw.periods = sample.periods;
  sink_->OnCpuSample(raw);
}

}  // namespace prof::collector
