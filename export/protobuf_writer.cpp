#include "export/protobuf_writer.h"

namespace prof::exporter {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2 };

}  // namespace

void ProtoMessage::AddVarint(uint32_t field, uint64_t value) {
  AppendVarint(uint64_t{field} << 3 | kVarint);
  AppendVarint(value);
}

void ProtoMessage::AddFixed64(uint32_t field, uint64_t value) {
  AppendVarint(uint64_t{field} << 3 | kFixed64);
  for (int byte = 0; byte < 8; ++byte) bytes_ += static_cast<char>((value >> (8 * byte)) & 0xFF);
}

void ProtoMessage::AddBytes(uint32_t field, std::string_view bytes) {
  AppendVarint(uint64_t{field} << 3 | kLengthDelimited);
  AppendVarint(bytes.size());
  bytes_.append(bytes);
}

void ProtoMessage::AppendVarint(uint64_t value) {
  while (value >= 0x80) {
    bytes_ += static_cast<char>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  bytes_ += static_cast<char>(value);
}

}  // namespace prof::exporter
