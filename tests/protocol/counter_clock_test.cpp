// NVTX ranges stamped in CPU counter ticks: the launcher's conversion onto CLOCK_MONOTONIC
// (collector/counter_clock.h) and the sink that rewrites the ranges before anything else sees them
// (collector/counter_time_sink.h).
#include "collector/counter_clock.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "collector/counter_time_sink.h"
#include "injection/protocol/record_format.h"

namespace {

using prof::collector::CounterClock;
using prof::collector::CounterTimeSink;
using prof::collector::ProcessStream;
using prof::protocol::CounterSample;
using prof::protocol::NvtxEventRecord;
using prof::protocol::NvtxRangeEnding;
using prof::protocol::RecordHeader;
using prof::protocol::RecordKind;

// The samples a test's clock takes, in order; past the end, the last one again.
std::vector<CounterSample> g_samples;
size_t g_taken = 0;

CounterSample NextSample() {
  const CounterSample sample =
      g_samples[g_taken < g_samples.size() ? g_taken : g_samples.size() - 1];
  ++g_taken;
  return sample;
}

void UseSamples(std::vector<CounterSample> samples) {
  g_samples = std::move(samples);
  g_taken = 0;
}

TEST_CASE("ticks convert on the line through the samples around them", "[counter_clock]") {
  // 3 ticks per ns until tick 3,000,000,000 (1 s), then 2 ticks per ns.
  UseSamples({{0, 5'000'000'000}, {3'000'000'000, 6'000'000'000}, {5'000'000'000, 7'000'000'000}});
  CounterClock clock(NextSample);
  // Past the only sample: the next one is taken, and the tick lies before it.
  CHECK(clock.ToMonotonicNs(300) == 5'000'000'100);
  CHECK(g_taken == 2);
  CHECK(clock.ToMonotonicNs(2'999'999'997) == 5'999'999'999);
  // Past the second: the third sample brackets it, on the new slope.
  CHECK(clock.ToMonotonicNs(3'000'000'002) == 6'000'000'001);
  CHECK(g_taken == 3);
  CHECK(clock.ToMonotonicNs(4'000'000'000) == 6'500'000'000);
  // Older ticks keep converting on their own interval.
  CHECK(clock.ToMonotonicNs(1'500'000'000) == 5'500'000'000);
}

TEST_CASE("ticks outside every sample extend the nearest interval without overflowing",
          "[counter_clock]") {
  UseSamples({{1000, 10'000}, {2000, 11'000}});
  CounterClock clock(NextSample);
  CHECK(clock.ToMonotonicNs(1500) == 10'500);
  // Past the newest sample, and the new sample is no later: extrapolated.
  CHECK(clock.ToMonotonicNs(2500) == 11'500);
  // Before the first sample (a garbage record, or another core's counter a few ticks behind).
  CHECK(clock.ToMonotonicNs(900) == 9'900);
  CHECK(clock.ToMonotonicNs(0) == 9'000);
  UseSamples({{1'000'000, 10}, {2'000'000, 20}});
  CounterClock steep(NextSample);
  CHECK(steep.ToMonotonicNs(1'500'000) == 15);
  CHECK(steep.ToMonotonicNs(0) == 0);  // saturates instead of wrapping below 0
  CHECK(steep.ToMonotonicNs(UINT64_MAX) == 10 + (UINT64_MAX - 1'000'000) / 100'000);
}

TEST_CASE("a clock that took one sample reads that sample's time", "[counter_clock]") {
  UseSamples({{1000, 10'000}});
  CounterClock clock(NextSample);
  CHECK(clock.ToMonotonicNs(5000) == 10'000);
  CHECK(clock.samples_kept() == 1);
}

TEST_CASE("samples closer than the spacing replace the newest - old ones thin to one a second",
          "[counter_clock]") {
  // One tick per ns; a sample every 1 ms for 2 s, then one every 20 ms for 200 s.
  std::vector<CounterSample> samples;
  for (uint64_t ns = 1'000'000; ns <= 2'000'000'000; ns += 1'000'000) samples.push_back({ns, ns});
  const uint64_t dense_end = samples.back().ns;
  for (uint64_t ns = dense_end + 20'000'000; ns <= dense_end + 200'000'000'000; ns += 20'000'000) {
    samples.push_back({ns, ns});
  }
  UseSamples(samples);
  CounterClock clock(NextSample);
  for (size_t i = 1; i < samples.size(); ++i) {
    const uint64_t ticks = samples[i].ticks - 1;  // each conversion needs the next sample
    REQUIRE(clock.ToMonotonicNs(ticks) == ticks);
  }
  CHECK(g_taken == samples.size());
  // 2 s at 10 ms spacing and 200 s at 20 ms would be 10,200 samples; kept: at most kMaxSamples
  // since the last thinning, and one a second of the 202 s before.
  CHECK(clock.samples_kept() <= CounterClock::kMaxSamples + 203);
  CHECK(clock.samples_kept() >= CounterClock::kRecentSamples);
  // A line stays a line, however thinned.
  CHECK(clock.ToMonotonicNs(123'456'789) == 123'456'789);
  CHECK(clock.ToMonotonicNs(150'000'000'017) == 150'000'000'017);
}

TEST_CASE("other CPUs' samples pass only within the tolerance of the line", "[counter_clock]") {
  // Two ticks a ns: the line is ns = 500 + (ticks - 1000) / 2.
  const CounterSample first{1000, 500};
  const CounterSample last{3000, 1500};
  constexpr uint64_t kTolerance = CounterClock::kCrossCpuToleranceNs;
  CHECK(CounterClock::SamplesOnOneLine(first, last, {}));
  CHECK(CounterClock::SamplesOnOneLine(first, last, {{2000, 1000}, {1200, 600}}));
  CHECK(CounterClock::SamplesOnOneLine(first, last, {{2000, 1000 + kTolerance}}));
  CHECK(CounterClock::SamplesOnOneLine(first, last, {{2000, 1000 - kTolerance}}));
  CHECK_FALSE(CounterClock::SamplesOnOneLine(first, last, {{2000, 1000 + kTolerance + 1}}));
  CHECK_FALSE(CounterClock::SamplesOnOneLine(first, last, {{1200, 600}, {2000, 999 - kTolerance}}));
  // No rate: the clocks stood still, or ran backwards, between first and last.
  CHECK_FALSE(CounterClock::SamplesOnOneLine(first, first, {}));
  CHECK_FALSE(CounterClock::SamplesOnOneLine(last, first, {}));
}

TEST_CASE("on this machine a tick converts to the CLOCK_MONOTONIC time it was read at",
          "[counter_clock]") {
  std::string why_not;
  if (!CounterClock::KernelKeepsTimeWithCounter(&why_not)) {
    WARN("not checked: the kernel does not keep time with the CPU counter here: " << why_not);
    return;
  }
  CounterClock clock;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t before = prof::protocol::MonotonicNowNs();
    const uint64_t ticks = prof::protocol::ReadCpuCounter();
    const uint64_t after = prof::protocol::MonotonicNowNs();
    const uint64_t converted = clock.ToMonotonicNs(ticks);
    // Within the reads around it, give or take the few ns a sample's bracket leaves.
    INFO("before " << before << " converted " << converted << " after " << after);
    REQUIRE(converted + 20 >= before);
    REQUIRE(converted <= after + 20);
  }
}

// Keeps what reaches it.
class RecordingSink : public prof::collector::StreamSink {
 public:
  void OnStreamStart(const RecordHeader&, ProcessStream*) override {}
  void OnRecord(const ProcessStream&, const RecordHeader& record) override {
    const auto* bytes = reinterpret_cast<const char*>(&record);
    records.emplace_back(bytes, bytes + record.size);
  }
  void OnStreamEnd(const ProcessStream&, const std::string&) override {}
  void OnStreamRejected(const std::string&) override {}

  std::vector<std::string> records;
};

// A push/pop range in ticks with its text, as a thread's ring holds it, 8-byte aligned.
std::vector<uint64_t> TicksRange(uint64_t start, uint64_t end, NvtxRangeEnding ending,
                                 const std::string& text) {
  NvtxEventRecord range{};
  range.header = {
      RecordKind::kNvtxPushPopRangeTicks,
      static_cast<uint16_t>(prof::protocol::AlignedRecordSize(sizeof(range) + text.size())), 7,
      start};
  range.end_ns = end;
  range.ending = ending;
  range.text_length = static_cast<uint32_t>(text.size());
  std::vector<uint64_t> words(range.header.size / sizeof(uint64_t));
  std::memcpy(words.data(), &range, sizeof(range));
  std::memcpy(reinterpret_cast<char*>(words.data()) + sizeof(range), text.data(), text.size());
  return words;
}

TEST_CASE("ranges in ticks reach the next sink as CLOCK_MONOTONIC ranges - the rest unchanged",
          "[counter_clock]") {
  // Two ticks per ns.
  UseSamples({{1000, 500}, {1'000'000'000, 500'000'000}});
  RecordingSink next;
  CounterTimeSink sink(&next, NextSample);
  const ProcessStream process;

  const std::vector<uint64_t> popped = TicksRange(2000, 4000, NvtxRangeEnding::kPopped, "step");
  sink.OnRecord(process, *reinterpret_cast<const RecordHeader*>(popped.data()));
  const std::vector<uint64_t> open_at_exit =
      TicksRange(6000, 0, NvtxRangeEnding::kOpenAtExit, "main");
  sink.OnRecord(process, *reinterpret_cast<const RecordHeader*>(open_at_exit.data()));
  const std::vector<uint64_t> died = TicksRange(8000, 10'000, NvtxRangeEnding::kOpenAtDeath, "");
  sink.OnRecord(process, *reinterpret_cast<const RecordHeader*>(died.data()));
  NvtxEventRecord in_ns{};
  in_ns.header = {RecordKind::kNvtxPushPopRange, sizeof(in_ns), 7, 2000};
  in_ns.end_ns = 4000;
  sink.OnRecord(process, in_ns.header);
  // Too short for a range: handed on as it came, for the dispatcher to count.
  RecordHeader cut{RecordKind::kNvtxPushPopRangeTicks, sizeof(RecordHeader), 7, 2000};
  sink.OnRecord(process, cut);

  REQUIRE(next.records.size() == 5);
  NvtxEventRecord range;
  std::memcpy(&range, next.records[0].data(), sizeof(range));
  CHECK(range.header.kind == RecordKind::kNvtxPushPopRange);
  CHECK(range.header.timestamp_ns == 1000);
  CHECK(range.end_ns == 2000);
  CHECK(range.header.tid == 7);
  CHECK(next.records[0].size() == prof::protocol::AlignedRecordSize(sizeof(range) + 4));
  CHECK(next.records[0].substr(sizeof(range), 4) == "step");
  std::memcpy(&range, next.records[1].data(), sizeof(range));
  CHECK(range.header.timestamp_ns == 3000);
  CHECK(range.end_ns == 0);
  CHECK(next.records[1].substr(sizeof(range), 4) == "main");
  std::memcpy(&range, next.records[2].data(), sizeof(range));
  CHECK(range.header.timestamp_ns == 4000);
  CHECK(range.end_ns == 5000);
  std::memcpy(&range, next.records[3].data(), sizeof(range));
  CHECK(range.header.timestamp_ns == 2000);
  CHECK(range.end_ns == 4000);
  RecordHeader passed;
  std::memcpy(&passed, next.records[4].data(), sizeof(passed));
  CHECK(passed.kind == RecordKind::kNvtxPushPopRangeTicks);
  CHECK(passed.size == sizeof(RecordHeader));
}

}  // namespace
