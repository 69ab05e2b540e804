// The few pieces of the protobuf wire format the perfetto export needs (varint, fixed64 and
// length-delimited fields), appended to a byte string. Encoding rules follow the public protobuf
// encoding description: a field is a key (field number << 3 | wire type) and its value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace prof::exporter {

class ProtoMessage {
 public:
  void AddVarint(uint32_t field, uint64_t value);
  // int64 fields are varints of the two's complement (negative values take ten bytes).
  void AddInt64(uint32_t field, int64_t value) { AddVarint(field, static_cast<uint64_t>(value)); }
  void AddFixed64(uint32_t field, uint64_t value);
  void AddBytes(uint32_t field, std::string_view bytes);  // strings too
  void AddMessage(uint32_t field, const ProtoMessage& message) { AddBytes(field, message.bytes()); }

  const std::string& bytes() const { return bytes_; }
  bool empty() const { return bytes_.empty(); }
  void Clear() { bytes_.clear(); }

 private:
  void AppendVarint(uint64_t value);

  std::string bytes_;
};

}  // namespace prof::exporter
