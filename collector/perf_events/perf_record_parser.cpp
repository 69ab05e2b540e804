#include "collector/perf_events/perf_record_parser.h"

#include <linux/perf_event.h>

#include <cstring>

namespace prof::collector::perf {
namespace {

// PERF_CONTEXT_* markers are the top 4095 values of u64 (PERF_CONTEXT_MAX = -4095).
bool IsContextMarker(uint64_t value) { return value >= static_cast<uint64_t>(PERF_CONTEXT_MAX); }

// Sequential reads within one record; a read past the end marks the whole record malformed.
class Reader {
 public:
  Reader(const uint8_t* begin, const uint8_t* end) : at_(begin), end_(end) {}

  bool ok() const { return ok_; }

  uint64_t U64() {
    uint64_t value = 0;
    Copy(&value, sizeof(value));
    return value;
  }
  uint32_t U32() {
    uint32_t value = 0;
    Copy(&value, sizeof(value));
    return value;
  }
  // `count` values in place (records are 8-byte aligned, so u64 arrays are aligned too).
  template <typename T>
  PerfSpan<T> Span(uint64_t count) {
    if (!ok_ || count > Remaining() / sizeof(T)) {
      ok_ = false;
      return {};
    }
    PerfSpan<T> span{reinterpret_cast<const T*>(at_), static_cast<size_t>(count)};
    at_ += count * sizeof(T);
    return span;
  }
  // The rest of the body as a zero-terminated string (the kernel pads it to 8 bytes); a string
  // without its terminator ends at the body's end.
  std::string_view Text() {
    if (!ok_) return {};
    const char* text = reinterpret_cast<const char*>(at_);
    const size_t length = strnlen(text, Remaining());
    at_ = end_;
    return std::string_view(text, length);
  }

 private:
  size_t Remaining() const { return static_cast<size_t>(end_ - at_); }
  bool Has(uint64_t bytes) {
    if (ok_ && bytes <= Remaining()) return true;
    ok_ = false;
    return false;
  }
  void Copy(void* out, size_t bytes) {
    if (!Has(bytes)) return;
    std::memcpy(out, at_, bytes);
    at_ += bytes;
  }

  const uint8_t* at_;
  const uint8_t* end_;
  bool ok_ = true;
};

// The bytes of the sample_id trailer that sample_id_all appends to every non-sample record.
size_t SampleIdBytes(uint64_t sample_type) {
  size_t bytes = 0;
  for (uint64_t bit : {PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
                       PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER}) {
    if (sample_type & bit) bytes += 8;
  }
  return bytes;
}

PerfRecordId ReadSampleId(Reader* in, uint64_t sample_type) {
  PerfRecordId id;
  if (sample_type & PERF_SAMPLE_TID) {
    id.pid = in->U32();
    id.tid = in->U32();
  }
  if (sample_type & PERF_SAMPLE_TIME) id.time_ns = in->U64();
  if (sample_type & PERF_SAMPLE_ID) in->U64();
  if (sample_type & PERF_SAMPLE_STREAM_ID) in->U64();
  if (sample_type & PERF_SAMPLE_CPU) id.cpu = static_cast<uint32_t>(in->U64());
  return id;
}

// The user frames of a callchain: after PERF_CONTEXT_USER up to the next marker; a chain without
// markers is all user frames.
PerfSpan<uint64_t> UserFrames(PerfSpan<uint64_t> chain) {
  size_t begin = 0;
  for (size_t i = 0; i < chain.size; ++i) {
    if (chain[i] == static_cast<uint64_t>(PERF_CONTEXT_USER)) {
      begin = i + 1;
      break;
    }
  }
  size_t end = begin;
  while (end < chain.size && !IsContextMarker(chain[end])) ++end;
  return {chain.data + begin, end - begin};
}

// Sample layout bits this decoder cannot walk past (the session never asks for them).
constexpr uint64_t kUnreadableSampleBits =
    PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_WEIGHT |
    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR;

PerfDecodeResult DecodeSample(Reader in, const PerfRecordLayout& layout, PerfRecord* record) {
  const uint64_t type = layout.sample_type;
  if (type & kUnreadableSampleBits) return PerfDecodeResult::kMalformed;
  PerfSample sample;
  if (type & PERF_SAMPLE_IDENTIFIER) in.U64();
  if (type & PERF_SAMPLE_IP) sample.ip = in.U64();
  if (type & PERF_SAMPLE_TID) {
    sample.id.pid = in.U32();
    sample.id.tid = in.U32();
  }
  if (type & PERF_SAMPLE_TIME) sample.id.time_ns = in.U64();
  if (type & PERF_SAMPLE_ADDR) in.U64();
  if (type & PERF_SAMPLE_ID) in.U64();
  if (type & PERF_SAMPLE_STREAM_ID) in.U64();
  if (type & PERF_SAMPLE_CPU) sample.id.cpu = static_cast<uint32_t>(in.U64());
  if (type & PERF_SAMPLE_PERIOD) in.U64();
  if (type & PERF_SAMPLE_CALLCHAIN) sample.callchain = UserFrames(in.Span<uint64_t>(in.U64()));
  if (type & PERF_SAMPLE_REGS_USER) {
    sample.regs_abi = in.U64();
    // No registers follow when the abi is PERF_SAMPLE_REGS_ABI_NONE.
    if (sample.regs_abi != PERF_SAMPLE_REGS_ABI_NONE) {
      sample.regs = in.Span<uint64_t>(__builtin_popcountll(layout.regs_user_mask));
    }
  }
  if (type & PERF_SAMPLE_STACK_USER) {
    const uint64_t size = in.U64();
    // No dyn_size follows an empty stack (a sample without user registers).
    if (size != 0) {
      sample.stack = in.Span<uint8_t>(size);
      sample.stack_dyn_size = in.U64();
      if (sample.stack_dyn_size > size) return PerfDecodeResult::kMalformed;
    }
  }
  if (!in.ok()) return PerfDecodeResult::kMalformed;
  *record = sample;
  return PerfDecodeResult::kDecoded;
}

// A side-band record's parts: its body (after the header, before the trailer) and the sample_id
// trailer that sample_id_all appends at its end.
bool SplitSideBand(const uint8_t* bytes, size_t size, const PerfRecordLayout& layout, Reader* body,
                   PerfRecordId* id) {
  const size_t trailer = SampleIdBytes(layout.sample_type);
  const size_t header = sizeof(perf_event_header);
  if (size < header + trailer) return false;
  Reader id_reader(bytes + size - trailer, bytes + size);
  *id = ReadSampleId(&id_reader, layout.sample_type);
  *body = Reader(bytes + header, bytes + size - trailer);
  return id_reader.ok();
}

PerfSwitch DecodeSwitch(uint32_t type, uint16_t misc, Reader* in) {
  PerfSwitch change;
  change.switch_out = (misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
  change.preempted = change.switch_out && (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
  change.cpu_wide = type == PERF_RECORD_SWITCH_CPU_WIDE;
  if (change.cpu_wide) {
    change.other_pid = in->U32();
    change.other_tid = in->U32();
  }
  return change;
}

PerfComm DecodeComm(uint16_t misc, Reader* in) {
  PerfComm comm;
  comm.pid = in->U32();
  comm.tid = in->U32();
  comm.exec = (misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
  comm.name = in->Text();
  return comm;
}

PerfTask DecodeTask(uint32_t type, Reader* in) {
  PerfTask task;
  task.exit = type == PERF_RECORD_EXIT;
  task.pid = in->U32();
  task.ppid = in->U32();
  task.tid = in->U32();
  task.ptid = in->U32();
  task.time_ns = in->U64();
  return task;
}

PerfMmap DecodeMmap(uint32_t type, uint16_t misc, Reader* in) {
  PerfMmap mapping;
  mapping.mmap2 = type == PERF_RECORD_MMAP2;
  mapping.pid = in->U32();
  mapping.tid = in->U32();
  mapping.address = in->U64();
  mapping.length = in->U64();
  mapping.page_offset = in->U64();
  if (mapping.mmap2) {
    if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
      // u8 build_id_size, u8 + u16 reserved, u8 build_id[20]: 24 bytes like maj/min/ino/ino_gen.
      const PerfSpan<uint8_t> id_bytes = in->Span<uint8_t>(24);
      if (!id_bytes.empty()) {
        const size_t id_size = id_bytes[0] <= 20 ? id_bytes[0] : 20;
        mapping.build_id = {id_bytes.data + 4, id_size};
      }
    } else {
      mapping.device_major = in->U32();
      mapping.device_minor = in->U32();
      mapping.inode = in->U64();
      in->U64();  // ino_generation
    }
    mapping.prot = in->U32();
    mapping.flags = in->U32();
  }
  mapping.path = in->Text();
  return mapping;
}

template <typename Struct>
void Set(Struct value, const PerfRecordId& id, PerfRecord* record) {
  value.id = id;
  *record = value;
}

}  // namespace

PerfDecodeResult DecodePerfRecord(const uint8_t* bytes, size_t size, const PerfRecordLayout& layout,
                                  PerfRecord* record) {
  if (size < sizeof(perf_event_header)) return PerfDecodeResult::kMalformed;
  perf_event_header header;
  std::memcpy(&header, bytes, sizeof(header));
  if (header.type == PERF_RECORD_SAMPLE) {
    return DecodeSample(Reader(bytes + sizeof(header), bytes + size), layout, record);
  }
  switch (header.type) {
    case PERF_RECORD_SWITCH:
    case PERF_RECORD_SWITCH_CPU_WIDE:
    case PERF_RECORD_COMM:
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:
    case PERF_RECORD_LOST:
    case PERF_RECORD_LOST_SAMPLES:
    case PERF_RECORD_THROTTLE:
    case PERF_RECORD_UNTHROTTLE:
      break;
    default:
      return PerfDecodeResult::kUnknownType;
  }
  Reader in(nullptr, nullptr);
  PerfRecordId id;
  if (!SplitSideBand(bytes, size, layout, &in, &id)) return PerfDecodeResult::kMalformed;
  switch (header.type) {
    case PERF_RECORD_SWITCH:
    case PERF_RECORD_SWITCH_CPU_WIDE:
      Set(DecodeSwitch(header.type, header.misc, &in), id, record);
      break;
    case PERF_RECORD_COMM:
      Set(DecodeComm(header.misc, &in), id, record);
      break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
      Set(DecodeTask(header.type, &in), id, record);
      break;
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:
      Set(DecodeMmap(header.type, header.misc, &in), id, record);
      break;
    case PERF_RECORD_LOST: {
      PerfLost lost;
      in.U64();  // the id of the event that lost them
      lost.lost = in.U64();
      Set(lost, id, record);
      break;
    }
    case PERF_RECORD_LOST_SAMPLES: {
      PerfLost lost;
      lost.lost = in.U64();
      lost.samples = true;
      Set(lost, id, record);
      break;
    }
    default: {  // THROTTLE, UNTHROTTLE: u64 time, id, stream_id
      PerfThrottle throttle;
      throttle.throttled = header.type == PERF_RECORD_THROTTLE;
      throttle.time_ns = in.U64();
      in.U64();
      in.U64();
      Set(throttle, id, record);
      break;
    }
  }
  return in.ok() ? PerfDecodeResult::kDecoded : PerfDecodeResult::kMalformed;
}

uint64_t PerfRecordTime(const PerfRecord& record) {
  return std::visit([](const auto& value) { return value.id.time_ns; }, record);
}

namespace {

struct Deliverer {
  PerfRecordSink& sink;
  PerfCounters* counters;

  void operator()(const PerfSample& value) const {
    ++counters->samples;
    sink.OnSample(value);
  }
  void operator()(const PerfSwitch& value) const { sink.OnSwitch(value); }
  void operator()(const PerfComm& value) const { sink.OnComm(value); }
  void operator()(const PerfTask& value) const { sink.OnTask(value); }
  void operator()(const PerfMmap& value) const { sink.OnMmap(value); }
  void operator()(const PerfLost& value) const {
    (value.samples ? counters->lost_samples : counters->lost_records) += value.lost;
    sink.OnLost(value);
  }
  void operator()(const PerfThrottle& value) const {
    ++(value.throttled ? counters->throttles : counters->unthrottles);
    sink.OnThrottle(value);
  }
};

}  // namespace

void DeliverPerfRecord(const PerfRecord& record, PerfRecordSink& sink, PerfCounters* counters) {
  ++counters->records;
  std::visit(Deliverer{sink, counters}, record);
}

}  // namespace prof::collector::perf
