// TimerSampleTracker on hand-built kCpuSample records: well-formed ones reach the sink whole,
// malformed ones are counted and skipped, and without a sink samples are only counted.
#include "collector/timer_sample_tracker.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "collector/record_dispatcher.h"
#include "injection/protocol/capture_control.h"
#include "injection/protocol/sample_records.h"

namespace {

using prof::collector::CpuSampleSink;
using prof::collector::ProcessStream;
using prof::collector::RawCpuSample;
using prof::collector::RecordDispatcher;
using prof::collector::TimerSampleTracker;
using namespace prof::protocol;

struct Recorded {
  RawCpuSample raw;
  std::vector<uint64_t> ips;
};

struct RecordingSink : CpuSampleSink {
  void OnCpuSample(const RawCpuSample& raw) override {
    samples.push_back({raw, std::vector<uint64_t>(raw.ips, raw.ips + raw.ip_count)});
  }
  std::vector<Recorded> samples;
};

// A kCpuSample record of `ips`, with `size` overriding the header's size when non-zero.
std::vector<uint64_t> SampleRecord(uint32_t tid, uint64_t time, const std::vector<uint64_t>& ips,
                                   uint16_t frame_count, uint16_t size = 0) {
  std::vector<uint64_t> words(sizeof(CpuSampleRecord) / 8 + ips.size());
  CpuSampleRecord record{};
  record.header = {RecordKind::kCpuSample,
                   static_cast<uint16_t>(size != 0 ? size : sizeof(record) + 8 * ips.size()), tid,
                   time};
  record.cpu = 1;
  record.frame_count = frame_count;
  record.truncated = 1;
  record.periods = 1;
  std::memcpy(words.data(), &record, sizeof(record));
  if (!ips.empty()) std::memcpy(words.data() + sizeof(record) / 8, ips.data(), 8 * ips.size());
  return words;
}

const RecordHeader& Header(const std::vector<uint64_t>& words) {
  return *reinterpret_cast<const RecordHeader*>(words.data());
}

}  // namespace

TEST_CASE("a CPU sample record reaches the sink with its frames", "[timer_sampling]") {
  RecordingSink sink;
  TimerSampleTracker tracker(&sink);
  RecordDispatcher dispatcher;
  tracker.RegisterHandlers(&dispatcher);
  ProcessStream process;
  process.pid = 4321;
  dispatcher.Dispatch(process, Header(SampleRecord(77, 5000, {0x10, 0x20, 0x30}, 3)));
  REQUIRE(sink.samples.size() == 1);
  const Recorded& got = sink.samples[0];
  CHECK(got.raw.pid == 4321);
  CHECK(got.raw.tid == 77);
  CHECK(got.raw.cpu == 1);
  CHECK(got.raw.time_ns == 5000);
  CHECK(got.raw.truncated);
  CHECK(got.ips == std::vector<uint64_t>{0x10, 0x20, 0x30});
  CHECK(tracker.samples() == 1);
  CHECK(tracker.malformed_records() == 0);
  CHECK(dispatcher.unknown_records() == 0);
}

TEST_CASE("CPU sample records whose size does not match their frames are counted",
          "[timer_sampling]") {
  RecordingSink sink;
  TimerSampleTracker tracker(&sink);
  RecordDispatcher dispatcher;
  tracker.RegisterHandlers(&dispatcher);
  const ProcessStream process;
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, {0x10, 0x20}, 3)));  // says 3, has 2
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, {0x10, 0x20}, 1)));  // says 1, has 2
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, {}, 0, 16)));  // shorter than the struct
  std::vector<uint64_t> too_deep(kMaxSampleFrames + 1, 0x10);
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, too_deep, kMaxSampleFrames + 1)));
  CHECK(sink.samples.empty());
  CHECK(tracker.malformed_records() == 3);
  CHECK(dispatcher.malformed_records() == 1);
  // A sample without frames is well formed (nothing to walk is not an error of the record).
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, {}, 0)));
  CHECK(sink.samples.size() == 1);
}

TEST_CASE("without a sink CPU samples are only counted", "[timer_sampling]") {
  TimerSampleTracker tracker(nullptr);
  RecordDispatcher dispatcher;
  tracker.RegisterHandlers(&dispatcher);
  const ProcessStream process;
  dispatcher.Dispatch(process, Header(SampleRecord(1, 1, {0x10}, 1)));
  CHECK(tracker.samples() == 1);
}

TEST_CASE("CPU samples are program events for capture control", "[timer_sampling]") {
  CHECK(CaptureRoleOf(RecordKind::kCpuSample) == CaptureRole::kProgramEvent);
  CHECK(static_cast<uint16_t>(RecordKind::kCpuSample) == 128);
}
