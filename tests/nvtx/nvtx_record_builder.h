// NVTX records built in memory the way libprof_nvtx.so lays them out, for feeding NvtxTracker.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "injection/protocol/record_format.h"

namespace prof::test {

// One record's bytes in 8-byte-aligned storage, as the collector hands records to trackers.
class BuiltRecord {
 public:
  template <typename Record>
  BuiltRecord(Record record, std::string_view text) {
    record.header.size =
        static_cast<uint16_t>(protocol::AlignedRecordSize(sizeof(Record) + text.size()));
    words_.assign(record.header.size / sizeof(uint64_t), 0);
    std::memcpy(words_.data(), &record, sizeof(Record));
    // An empty view's data() may be null, which memcpy must not be given even for 0 bytes.
    if (!text.empty()) {
      std::memcpy(reinterpret_cast<char*>(words_.data()) + sizeof(Record), text.data(),
                  text.size());
    }
  }

  const protocol::RecordHeader& header() const {
    return *reinterpret_cast<const protocol::RecordHeader*>(words_.data());
  }
  // For corrupting a record on purpose.
  protocol::RecordHeader* mutable_header() {
    return reinterpret_cast<protocol::RecordHeader*>(words_.data());
  }

 private:
  std::vector<uint64_t> words_;
};

// Attributes of an event record beyond kind, thread, time and domain.
struct EventFields {
  uint64_t range_id = 0;  // push/pop range: its end; range start: the id
  protocol::NvtxRangeEnding ending = protocol::NvtxRangeEnding::kPopped;  // push/pop range
  protocol::NvtxMessageKind message_kind = protocol::NvtxMessageKind::kText;
  std::string_view text;
  uint64_t registered_string_id = 0;
  uint32_t category = 0;
  bool has_color = false;
  uint32_t color = 0;
  protocol::NvtxPayloadKind payload_kind = protocol::NvtxPayloadKind::kNone;
  uint64_t payload_bits = 0;
};

inline protocol::RecordHeader Header(protocol::RecordKind kind, uint32_t tid, uint64_t time) {
  return {kind, 0, tid, time};
}

inline BuiltRecord EventRecord(protocol::RecordKind kind, uint32_t tid, uint64_t time,
                               uint64_t domain_id, const EventFields& fields) {
  protocol::NvtxEventRecord record{};
  record.header = Header(kind, tid, time);
  record.domain_id = domain_id;
  record.range_id = fields.range_id;
  record.registered_string_id = fields.registered_string_id;
  record.payload_bits = fields.payload_bits;
  record.category = fields.category;
  record.color = fields.color;
  record.has_color = fields.has_color ? 1 : 0;
  record.message_kind = fields.message_kind;
  record.payload_kind = fields.payload_kind;
  record.ending = fields.ending;
  record.text_length = static_cast<uint32_t>(fields.text.size());
  return BuiltRecord(record, fields.text);
}

// A push/pop range as it reaches the collector, whole: `end` is its pop, or for a range its
// process ended with, what the launcher set (NvtxRangeEnding).
inline BuiltRecord Range(uint32_t tid, uint64_t start, uint64_t end, std::string_view text,
                         uint64_t domain_id = 0,
                         protocol::NvtxRangeEnding ending = protocol::NvtxRangeEnding::kPopped) {
  EventFields fields;
  fields.range_id = end;
  fields.ending = ending;
  fields.text = text;
  return EventRecord(protocol::RecordKind::kNvtxPushPopRange, tid, start, domain_id, fields);
}

inline BuiltRecord RangeEnd(protocol::RecordKind kind, uint32_t tid, uint64_t time,
                            uint64_t range_id, uint64_t domain_id = 0) {
  protocol::NvtxRangeEndRecord record{};
  record.header = Header(kind, tid, time);
  record.domain_id = domain_id;
  record.range_id = range_id;
  return BuiltRecord(record, {});
}

inline BuiltRecord Start(uint32_t tid, uint64_t time, uint64_t range_id, std::string_view text) {
  EventFields fields;
  fields.range_id = range_id;
  fields.text = text;
  return EventRecord(protocol::RecordKind::kNvtxRangeStart, tid, time, 0, fields);
}

inline BuiltRecord End(uint32_t tid, uint64_t time, uint64_t range_id) {
  return RangeEnd(protocol::RecordKind::kNvtxRangeEnd, tid, time, range_id);
}

inline BuiltRecord Domain(protocol::RecordKind kind, uint32_t tid, uint64_t time,
                          uint64_t domain_id, std::string_view name) {
  protocol::NvtxDomainRecord record{};
  record.header = Header(kind, tid, time);
  record.domain_id = domain_id;
  record.text_length = static_cast<uint32_t>(name.size());
  return BuiltRecord(record, name);
}

inline BuiltRecord RegisterString(uint32_t tid, uint64_t time, uint64_t domain_id,
                                  uint64_t string_id, std::string_view text) {
  protocol::NvtxStringRecord record{};
  record.header = Header(protocol::RecordKind::kNvtxStringRegister, tid, time);
  record.domain_id = domain_id;
  record.string_id = string_id;
  record.text_length = static_cast<uint32_t>(text.size());
  return BuiltRecord(record, text);
}

inline BuiltRecord CategoryName(uint32_t tid, uint64_t time, uint64_t domain_id, uint32_t category,
                                std::string_view name) {
  protocol::NvtxCategoryRecord record{};
  record.header = Header(protocol::RecordKind::kNvtxCategoryName, tid, time);
  record.domain_id = domain_id;
  record.category = category;
  record.text_length = static_cast<uint32_t>(name.size());
  return BuiltRecord(record, name);
}

}  // namespace prof::test
