#include "injection/nvtx/nvtx_records.h"

#include <cstring>

#include "injection/core/event_stream.h"

namespace prof::injection::nvtx {
namespace {

using protocol::NvtxMessageKind;
using protocol::NvtxPayloadKind;

// Attribute structs shorter than this predate the fields prof reads; they count as absent.
constexpr size_t kMinAttributesSize = sizeof(nvtxEventAttributes_t);

bool HasAttributes(const nvtxEventAttributes_t* attributes) {
  return attributes != nullptr && attributes->size >= kMinAttributesSize;
}

// The payload's bits, zero-extended from its own width (the rest of the union may be garbage).
NvtxPayloadKind ReadPayload(const nvtxEventAttributes_t& attributes, uint64_t* bits) {
  size_t width = sizeof(uint64_t);
  switch (attributes.payloadType) {
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
    case NVTX_PAYLOAD_TYPE_INT64:
    case NVTX_PAYLOAD_TYPE_DOUBLE:
      break;
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
    case NVTX_PAYLOAD_TYPE_INT32:
    case NVTX_PAYLOAD_TYPE_FLOAT:
      width = sizeof(uint32_t);
      break;
    default:  // unused, or an extension payload prof does not decode
      return NvtxPayloadKind::kNone;
  }
  *bits = 0;
  std::memcpy(bits, &attributes.payload, width);
  return static_cast<NvtxPayloadKind>(attributes.payloadType);
}

// Fills the message fields of `fields` (an NvtxEventRecord or NvtxRangeAttributes) from the
// attributes and calls `send(text, length)` with the message in UTF-8, while a converted wide
// message still lives.
template <typename Fields, typename Send>
void SendWithMessage(Fields* fields, const nvtxEventAttributes_t& attributes, const Send& send) {
  // A null message pointer of any type means "no message".
  if (attributes.message.ascii != nullptr) {
    switch (attributes.messageType) {
      case NVTX_MESSAGE_TYPE_ASCII: {
        const Utf8Text text(attributes.message.ascii);
        fields->message_kind = NvtxMessageKind::kText;
        return send(text.data(), text.size());
      }
      case NVTX_MESSAGE_TYPE_UNICODE: {
        const Utf8Text text(attributes.message.unicode);
        fields->message_kind = NvtxMessageKind::kText;
        return send(text.data(), text.size());
      }
      case NVTX_MESSAGE_TYPE_REGISTERED: {
        const auto* string = reinterpret_cast<const StringHandle*>(attributes.message.registered);
        fields->registered_string_id = string->id;
        fields->message_kind = NvtxMessageKind::kRegistered;
        return send(string->text, string->text_length);
      }
      default:
        break;
    }
  }
  send(nullptr, 0);
}

// Fills `fields` from the program's attributes and sends them as SendWithMessage does.
template <typename Fields, typename Send>
void SendEvent(Fields* fields, const nvtxEventAttributes_t* attributes, const Send& send) {
  if (!HasAttributes(attributes)) return send(nullptr, 0);
  fields->category = attributes->category;
  if (attributes->colorType == NVTX_COLOR_ARGB) {
    fields->has_color = 1;
    fields->color = attributes->color;
  }
  fields->payload_kind = ReadPayload(*attributes, &fields->payload_bits);
  SendWithMessage(fields, *attributes, send);
}

}  // namespace

void EmitEvent(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id, uint64_t range_id,
               const nvtxEventAttributes_t* attributes) {
  protocol::NvtxEventRecord record{};
  record.header.kind = kind;
  record.header.timestamp_ns = timestamp;
  record.domain_id = domain_id;
  record.range_id = range_id;
  SendEvent(&record, attributes, [&record](const char* text, size_t length) {
    record.text_length = ClampTextLength(length);
    EmitRecordWithText(&record.header, sizeof(record), text, record.text_length);
  });
}

void OpenRange(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id, uint64_t level,
               const nvtxEventAttributes_t* attributes) {
  protocol::NvtxRangeAttributes fields;
  SendEvent(&fields, attributes, [&](const char* text, size_t length) {
    OpenPushPopRange(kind, timestamp, domain_id, level, fields, text, length);
  });
}

void OpenTextRange(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id,
                   uint64_t level, const char* message) {
  // Constant: libprof_core reads attributes no store of this call wrote.
  static constexpr protocol::NvtxRangeAttributes kNone{};
  static constexpr protocol::NvtxRangeAttributes kText{
      0, 0, 0, 0, 0, NvtxMessageKind::kText, NvtxPayloadKind::kNone};
  const Utf8Text text(message);  // empty for a null message, which makes a range without one
  OpenPushPopRange(kind, timestamp, domain_id, level, message == nullptr ? kNone : kText,
                   text.data(), text.size());
}

void EmitRangeEnd(uint64_t timestamp, uint64_t domain_id, uint64_t range_id) {
  protocol::NvtxRangeEndRecord record{};
  record.header.kind = protocol::RecordKind::kNvtxRangeEnd;
  record.header.timestamp_ns = timestamp;
  record.domain_id = domain_id;
  record.range_id = range_id;
  EmitRecord(&record.header, sizeof(record));
}

void EmitDomainCreate(uint64_t timestamp, const DomainHandle& domain) {
  if (domain.library != protocol::NvtxLibrary::kNone) {
    protocol::NvtxLibraryDomainRecord record{};
    record.header.kind = protocol::RecordKind::kNvtxLibraryDomain;
    record.header.timestamp_ns = timestamp;
    record.domain_id = domain.id;
    record.library = domain.library;
    return EmitRecord(&record.header, sizeof(record));
  }
  protocol::NvtxDomainRecord record{};
  record.header.kind = protocol::RecordKind::kNvtxDomainCreate;
  record.header.timestamp_ns = timestamp;
  record.domain_id = domain.id;
  record.text_length = domain.name_length;
  EmitRecordWithText(&record.header, sizeof(record), domain.name, domain.name_length);
}

void EmitDomainDestroy(uint64_t timestamp, uint64_t domain_id) {
  protocol::NvtxDomainRecord record{};
  record.header.kind = protocol::RecordKind::kNvtxDomainDestroy;
  record.header.timestamp_ns = timestamp;
  record.domain_id = domain_id;
  EmitRecord(&record.header, sizeof(record));
}

void EmitStringRegister(uint64_t timestamp, const StringHandle& string) {
  protocol::NvtxStringRecord record{};
  record.header.kind = protocol::RecordKind::kNvtxStringRegister;
  record.header.timestamp_ns = timestamp;
  record.domain_id = string.domain_id;
  record.string_id = string.id;
  record.text_length = string.text_length;
  EmitRecordWithText(&record.header, sizeof(record), string.text, string.text_length);
}

void EmitCategoryName(uint64_t timestamp, uint64_t domain_id, uint32_t category,
                      const Utf8Text& name) {
  protocol::NvtxCategoryRecord record{};
  record.header.kind = protocol::RecordKind::kNvtxCategoryName;
  record.header.timestamp_ns = timestamp;
  record.domain_id = domain_id;
  record.category = category;
  record.text_length = ClampTextLength(name.size());
  EmitRecordWithText(&record.header, sizeof(record), name.data(), record.text_length);
}

void EmitThreadName(uint64_t timestamp, uint32_t tid, const Utf8Text& name) {
  protocol::ThreadNameRecord record{};
  record.header.kind = protocol::RecordKind::kThreadName;
  record.header.timestamp_ns = timestamp;
  record.named_tid = tid;
  record.text_length = ClampTextLength(name.size());
  EmitRecordWithText(&record.header, sizeof(record), name.data(), record.text_length);
}

}  // namespace prof::injection::nvtx
