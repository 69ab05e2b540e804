// The ring reader, record decoder and per-pass merge over hand-built ring bytes: no kernel needed.
// Records are laid out as `man perf_event_open` describes them, with the sample_id trailer that
// sample_id_all adds (pid/tid, time, cpu).
#include <asm/perf_regs.h>
#include <linux/perf_event.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "collector/perf_events/perf_attributes.h"
#include "collector/perf_events/perf_record_parser.h"
#include "collector/perf_events/perf_ring.h"
#include "collector/perf_events/perf_ring_merge.h"

namespace perf = prof::collector::perf;

namespace {

constexpr uint64_t kFpSampleType =
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;

// One record's bytes: header, then the u32/u64/text fields in order; Finish() pads and sets size.
class RecordBytes {
 public:
  RecordBytes(uint32_t type, uint16_t misc = 0) : bytes_(8, 0) {
    std::memcpy(bytes_.data(), &type, 4);
    std::memcpy(bytes_.data() + 4, &misc, 2);
  }
  RecordBytes& U32(uint32_t value) { return Raw(&value, 4); }
  RecordBytes& U64(uint64_t value) { return Raw(&value, 8); }
  RecordBytes& Text(const std::string& text) {
    Raw(text.c_str(), text.size() + 1);
    while (bytes_.size() % 8 != 0) bytes_.push_back(0);
    return *this;
  }
  RecordBytes& Raw(const void* data, size_t size) {
    const auto* begin = static_cast<const uint8_t*>(data);
    bytes_.insert(bytes_.end(), begin, begin + size);
    return *this;
  }
  // The sample_id trailer of a side-band record: pid/tid, time, cpu.
  RecordBytes& Id(uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu) {
    return U32(pid).U32(tid).U64(time).U64(cpu);
  }
  std::vector<uint8_t> Finish() {
    while (bytes_.size() % 8 != 0) bytes_.push_back(0);
    const auto size = static_cast<uint16_t>(bytes_.size());
    std::memcpy(bytes_.data() + 6, &size, 2);
    return bytes_;
  }

 private:
  std::vector<uint8_t> bytes_;
};

// A fp sample: ip, pid/tid, time, cpu, callchain [PERF_CONTEXT_USER, frames...].
std::vector<uint8_t> FpSample(uint64_t ip, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
                              const std::vector<uint64_t>& frames) {
  RecordBytes record(PERF_RECORD_SAMPLE);
  record.U64(ip).U32(pid).U32(tid).U64(time).U64(cpu).U64(frames.size() + 1);
  record.U64(static_cast<uint64_t>(PERF_CONTEXT_USER));
  for (uint64_t frame : frames) record.U64(frame);
  return record.Finish();
}

// A ring in ordinary memory, laid out as the kernel's: metadata page, then a power-of-2 data area.
class FakeRing {
 public:
  explicit FakeRing(uint64_t data_size, uint64_t start = 0)
      : data_(data_size, 0xEE), ring_(&meta_, data_.data(), data_size) {
    std::memset(&meta_, 0, sizeof(meta_));
    meta_.data_head = meta_.data_tail = start;
  }
  // Appends `record` at the head as the kernel does, wrapping at the end of the area.
  void Write(const std::vector<uint8_t>& record) {
    for (uint8_t byte : record) {
      data_[meta_.data_head % data_.size()] = byte;
      ++meta_.data_head;
    }
  }
  perf::PerfRing* ring() { return &ring_; }
  uint64_t head() const { return meta_.data_head; }
  uint64_t tail() const { return meta_.data_tail; }

 private:
  perf_event_mmap_page meta_;
  std::vector<uint8_t> data_;
  perf::PerfRing ring_;
};

// Keeps copies of what it receives (spans are valid during the callback only).
struct RecordingSink : perf::PerfRecordSink {
  struct Sample {
    uint32_t pid, tid, cpu;
    uint64_t time, ip;
    std::vector<uint64_t> callchain, regs;
    uint64_t regs_abi;
    std::vector<uint8_t> stack;
    uint64_t dyn_size;
  };
  std::vector<Sample> samples;
  std::vector<std::string> events;  // every record, in delivery order, as text
  std::vector<uint64_t> times;

  void OnSample(const perf::PerfSample& s) override {
    samples.push_back({s.id.pid, s.id.tid, s.id.cpu, s.id.time_ns, s.ip,
                       std::vector<uint64_t>(s.callchain.begin(), s.callchain.end()),
                       std::vector<uint64_t>(s.regs.begin(), s.regs.end()), s.regs_abi,
                       std::vector<uint8_t>(s.stack.begin(), s.stack.end()), s.stack_dyn_size});
    Add("sample", s.id);
  }
  void OnSwitch(const perf::PerfSwitch& s) override {
    Add(std::string(s.switch_out ? (s.preempted ? "out-preempted" : "out-blocked") : "in") +
            (s.cpu_wide ? " other " + std::to_string(s.other_tid) : ""),
        s.id);
  }
  void OnComm(const perf::PerfComm& c) override {
    Add("comm " + std::string(c.name) + (c.exec ? " exec" : "") + " " + std::to_string(c.tid),
        c.id);
  }
  void OnTask(const perf::PerfTask& t) override {
    Add(std::string(t.exit ? "exit " : "fork ") + std::to_string(t.pid) + "/" +
            std::to_string(t.tid) + " parent " + std::to_string(t.ppid) + " at " +
            std::to_string(t.time_ns),
        t.id);
  }
  void OnMmap(const perf::PerfMmap& m) override {
    std::string build_id;
    for (uint8_t byte : m.build_id) build_id += std::to_string(byte) + ".";
    Add(std::string(m.mmap2 ? "mmap2 " : "mmap ") + std::string(m.path) + " " +
            std::to_string(m.address) + "+" + std::to_string(m.length) + "@" +
            std::to_string(m.page_offset) + " prot " + std::to_string(m.prot) + " id " + build_id +
            " ino " + std::to_string(m.inode),
        m.id);
  }
  void OnLost(const perf::PerfLost& l) override {
    Add(std::string(l.samples ? "lost-samples " : "lost ") + std::to_string(l.lost), l.id);
  }
  void OnThrottle(const perf::PerfThrottle& t) override {
    Add(t.throttled ? "throttle" : "unthrottle", t.id);
  }
  void Add(const std::string& text, const perf::PerfRecordId& id) {
    events.push_back(text);
    times.push_back(id.time_ns);
  }
};

perf::PerfRecordLayout FpLayout() { return {kFpSampleType, 0}; }

size_t DrainOne(FakeRing* ring, const perf::PerfRecordLayout& layout, perf::PerfRecordSink& sink,
                perf::PerfCounters* counters) {
  return perf::DrainRingsInTimeOrder({ring->ring()}, layout, sink, counters);
}

}  // namespace

TEST_CASE("a sample that wraps the ring's end is copied out and decoded whole") {
  // 256-byte area, reading starts 24 bytes before its end: the 80-byte sample wraps.
  FakeRing ring(256, 1000 * 256 + 232);
  ring.Write(FpSample(0x401000, 42, 43, 5000, 1, {0x401000, 0x402000, 0x403000}));
  ring.Write(FpSample(0x401010, 42, 43, 6000, 1, {0x401010}));
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(DrainOne(&ring, FpLayout(), sink, &counters) == 2);
  REQUIRE(sink.samples.size() == 2);
  const auto& first = sink.samples[0];
  CHECK(first.pid == 42);
  CHECK(first.tid == 43);
  CHECK(first.cpu == 1);
  CHECK(first.time == 5000);
  CHECK(first.ip == 0x401000);
  CHECK(first.callchain == std::vector<uint64_t>{0x401000, 0x402000, 0x403000});
  CHECK(sink.samples[1].callchain == std::vector<uint64_t>{0x401010});
  CHECK(counters.samples == 2);
  CHECK(counters.records == 2);
  // Everything read is handed back to the kernel.
  CHECK(ring.tail() == ring.head());
}

TEST_CASE("unknown record types are skipped and counted, LOST and throttling are counted") {
  FakeRing ring(4096);
  ring.Write(RecordBytes(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC)
                 .U32(7)
                 .U32(7)
                 .Text("program")
                 .Id(7, 7, 100, 0)
                 .Finish());
  ring.Write(RecordBytes(99).U64(1).U64(2).Id(7, 7, 150, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_LOST).U64(3).U64(7).Id(7, 8, 200, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_THROTTLE).U64(300).U64(3).U64(0).Id(7, 8, 300, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_UNTHROTTLE).U64(400).U64(3).U64(0).Id(7, 8, 400, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_LOST_SAMPLES).U64(5).Id(7, 8, 500, 0).Finish());
  ring.Write(FpSample(0x10, 7, 8, 600, 0, {}));
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(DrainOne(&ring, FpLayout(), sink, &counters) == 6);
  CHECK(sink.events == std::vector<std::string>{"comm program exec 7", "lost 7", "throttle",
                                                "unthrottle", "lost-samples 5", "sample"});
  CHECK(sink.times == std::vector<uint64_t>{100, 200, 300, 400, 500, 600});
  CHECK(counters.unknown_records == 1);
  CHECK(counters.lost_records == 7);
  CHECK(counters.lost_samples == 5);
  CHECK(counters.throttles == 1);
  CHECK(counters.unthrottles == 1);
  CHECK(counters.records == 6);
  CHECK(sink.samples.at(0).callchain.empty());
}

TEST_CASE("one pass merges the CPUs' rings in timestamp order") {
  FakeRing cpu0(1024), cpu1(1024);
  for (uint64_t time : {10, 30, 50}) cpu0.Write(FpSample(time, 1, 1, time, 0, {}));
  for (uint64_t time : {20, 40}) cpu1.Write(FpSample(time, 1, 2, time, 1, {}));
  cpu1.Write(
      RecordBytes(PERF_RECORD_EXIT).U32(1).U32(1).U32(2).U32(2).U64(45).Id(1, 2, 45, 1).Finish());
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(perf::DrainRingsInTimeOrder({cpu0.ring(), cpu1.ring()}, FpLayout(), sink, &counters) ==
          6);
  CHECK(sink.times == std::vector<uint64_t>{10, 20, 30, 40, 45, 50});
  CHECK(sink.events.at(4) == "exit 1/2 parent 1 at 45");
  std::vector<uint32_t> cpus;
  for (const auto& sample : sink.samples) cpus.push_back(sample.cpu);
  CHECK(cpus == std::vector<uint32_t>{0, 1, 0, 1, 0});
  // A second pass finds nothing new.
  CHECK(perf::DrainRingsInTimeOrder({cpu0.ring(), cpu1.ring()}, FpLayout(), sink, &counters) == 0);
}

TEST_CASE("broken framing skips the rest of the pass and counts its bytes") {
  std::vector<uint8_t> zero_size = RecordBytes(PERF_RECORD_SAMPLE).U64(0).Finish();
  zero_size[6] = zero_size[7] = 0;
  FakeRing broken(1024);
  broken.Write(FpSample(1, 1, 1, 1, 0, {}));
  broken.Write(zero_size);
  broken.Write(FpSample(2, 1, 1, 2, 0, {}));
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(DrainOne(&broken, FpLayout(), sink, &counters) == 1);
  CHECK(counters.malformed_ring_bytes == 16 + 56);
  CHECK(broken.tail() == broken.head());
  // A sample too short for its layout (an ip and nothing else) is skipped as malformed; the
  // framing holds, so the next one still arrives.
  FakeRing ring(1024);
  ring.Write(RecordBytes(PERF_RECORD_SAMPLE).U64(0).Finish());
  ring.Write(FpSample(1, 1, 1, 1, 0, {}));
  perf::PerfCounters short_counters;
  RecordingSink short_sink;
  REQUIRE(DrainOne(&ring, FpLayout(), short_sink, &short_counters) == 1);
  CHECK(short_counters.malformed_records == 1);
}

TEST_CASE("dwarf samples carry registers and the user stack") {
  const uint64_t mask = perf::PerfUserRegsMask();
  REQUIRE(__builtin_popcountll(mask) == 20);
  const perf::PerfRecordLayout layout{PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                          PERF_SAMPLE_CPU | PERF_SAMPLE_REGS_USER |
                                          PERF_SAMPLE_STACK_USER,
                                      mask};
  RecordBytes with_regs(PERF_RECORD_SAMPLE);
  with_regs.U64(0x500).U32(3).U32(4).U64(77).U64(1).U64(PERF_SAMPLE_REGS_ABI_64);
  for (uint64_t r = 0; r < 20; ++r) with_regs.U64(1000 + r);
  with_regs.U64(32);  // stack size
  for (uint8_t b = 0; b < 32; ++b) with_regs.Raw(&b, 1);
  with_regs.U64(24);  // dyn_size
  // A sample without user registers: abi NONE, no registers, stack size 0, no dyn_size.
  RecordBytes without(PERF_RECORD_SAMPLE);
  without.U64(0x600).U32(3).U32(4).U64(78).U64(1).U64(PERF_SAMPLE_REGS_ABI_NONE).U64(0);
  FakeRing ring(4096);
  ring.Write(with_regs.Finish());
  ring.Write(without.Finish());
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(DrainOne(&ring, layout, sink, &counters) == 2);
  const auto& sample = sink.samples.at(0);
  CHECK(sample.regs_abi == PERF_SAMPLE_REGS_ABI_64);
  REQUIRE(sample.regs.size() == 20);
  CHECK(sample.regs[perf::PerfUserRegIndex(mask, PERF_REG_X86_SP)] == 1007);
  CHECK(sample.regs[perf::PerfUserRegIndex(mask, PERF_REG_X86_IP)] == 1008);
  CHECK(sample.regs[perf::PerfUserRegIndex(mask, PERF_REG_X86_R15)] == 1019);
  CHECK(perf::PerfUserRegIndex(mask, PERF_REG_X86_DS) == -1);
  REQUIRE(sample.stack.size() == 32);
  CHECK(sample.stack[31] == 31);
  CHECK(sample.dyn_size == 24);
  CHECK(sink.samples.at(1).regs.empty());
  CHECK(sink.samples.at(1).stack.empty());
  CHECK(counters.malformed_records == 0);
}

TEST_CASE("switch, fork, mmap and mmap2 records are decoded") {
  FakeRing ring(4096);
  const uint16_t out = PERF_RECORD_MISC_SWITCH_OUT;
  const uint16_t preempt = PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
  ring.Write(RecordBytes(PERF_RECORD_SWITCH, out).Id(5, 6, 1, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_SWITCH, out | preempt).Id(5, 6, 2, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_SWITCH).Id(5, 6, 3, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_SWITCH_CPU_WIDE).U32(9).U32(10).Id(5, 6, 4, 0).Finish());
  ring.Write(
      RecordBytes(PERF_RECORD_FORK).U32(11).U32(5).U32(11).U32(6).U64(5).Id(5, 6, 5, 0).Finish());
  ring.Write(RecordBytes(PERF_RECORD_MMAP)
                 .U32(5)
                 .U32(5)
                 .U64(4096)
                 .U64(8192)
                 .U64(0)
                 .Text("/bin/x")
                 .Id(5, 5, 6, 0)
                 .Finish());
  const uint8_t build_id[24] = {3, 0, 0, 0, 0xAB, 0xCD, 0xEF};
  ring.Write(RecordBytes(PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID)
                 .U32(5)
                 .U32(5)
                 .U64(0x7000)
                 .U64(0x1000)
                 .U64(0x2000)
                 .Raw(build_id, sizeof(build_id))
                 .U32(5)
                 .U32(2)
                 .Text("/lib/libz.so")
                 .Id(5, 5, 7, 0)
                 .Finish());
  ring.Write(RecordBytes(PERF_RECORD_MMAP2)
                 .U32(5)
                 .U32(5)
                 .U64(0x9000)
                 .U64(0x1000)
                 .U64(0)
                 .U32(8)
                 .U32(1)
                 .U64(1234)
                 .U64(0)
                 .U32(5)
                 .U32(2)
                 .Text("/lib/liby.so")
                 .Id(5, 5, 8, 0)
                 .Finish());
  RecordingSink sink;
  perf::PerfCounters counters;
  REQUIRE(DrainOne(&ring, FpLayout(), sink, &counters) == 8);
  CHECK(sink.events == std::vector<std::string>{
                           "out-blocked",
                           "out-preempted",
                           "in",
                           "in other 10",
                           "fork 11/11 parent 5 at 5",
                           "mmap /bin/x 4096+8192@0 prot 0 id  ino 0",
                           "mmap2 /lib/libz.so 28672+4096@8192 prot 5 id 171.205.239. ino 0",
                           "mmap2 /lib/liby.so 36864+4096@0 prot 5 id  ino 1234",
                       });
}

TEST_CASE("sampling options become the documented attributes and ring sizes") {
  perf::PerfSamplingOptions options;
  perf_event_attr attr = perf::SamplingAttributes(options, 127);
  CHECK(attr.type == PERF_TYPE_SOFTWARE);
  CHECK(attr.config == PERF_COUNT_SW_CPU_CLOCK);
  CHECK(attr.sample_period == 1000000);
  CHECK(attr.freq == 0);
  CHECK(attr.sample_type == kFpSampleType);
  CHECK(attr.sample_max_stack == 127);
  CHECK((attr.inherit && attr.enable_on_exec && attr.disabled && attr.exclude_kernel &&
         attr.exclude_hv && attr.exclude_callchain_kernel && attr.use_clockid &&
         attr.sample_id_all && attr.comm && attr.task && attr.mmap && attr.mmap2 &&
         attr.context_switch && attr.watermark));
  CHECK(attr.clockid == CLOCK_MONOTONIC);
  CHECK(perf::RingDataBytes(options, 127) == 512 * 1024);
  CHECK(perf::SamplingAttributes(options, 64).sample_max_stack == 64);

  options.backtrace = perf::PerfBacktrace::kDwarf;
  options.frequency_hz = 250;
  attr = perf::SamplingAttributes(options, 127);
  CHECK(attr.sample_period == 4000000);
  CHECK(attr.sample_regs_user == perf::PerfUserRegsMask());
  CHECK(attr.sample_stack_user == 16384);
  CHECK((attr.sample_type & PERF_SAMPLE_CALLCHAIN) == 0);
  CHECK(perf::RingDataBytes(options, 127) == 1024 * 1024);
  options.frequency_hz = 1000;
  CHECK(perf::RingDataBytes(options, 127) == 4 * 1024 * 1024);

  options.backtrace = perf::PerfBacktrace::kNone;
  CHECK(perf::SamplingAttributes(options, 127).sample_type ==
        (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU));
  CHECK(perf::RingDataBytes(options, 127) == 64 * 1024);

  options.stack_bytes = 100;
  options.backtrace = perf::PerfBacktrace::kDwarf;
  CHECK(perf::CheckSamplingOptions(options).message() ==
        "stack bytes per sample must be a multiple of 8 from 8 to 65528, not 100");
  options.stack_bytes = 8;
  options.frequency_hz = 0;
  CHECK(perf::CheckSamplingOptions(options).message() ==
        "sampling frequency must be 1 to 100000 Hz, not 0");
}

TEST_CASE("the online CPU list is parsed as /sys writes it") {
  auto cpus = perf::ParseCpuList("0-3,5,7-8\n");
  REQUIRE(cpus.ok());
  CHECK(*cpus == std::vector<int>{0, 1, 2, 3, 5, 7, 8});
  CHECK(*perf::ParseCpuList("0") == std::vector<int>{0});
  for (const char* bad : {"", "3-1", "a", "1,", "0-", "1-2x"}) {
    INFO(bad);
    CHECK(!perf::ParseCpuList(bad).ok());
  }
  REQUIRE(perf::OnlineCpus().ok());
  CHECK(!perf::OnlineCpus()->empty());
}
