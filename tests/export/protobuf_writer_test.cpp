// The protobuf wire format pieces (export/protobuf_writer.h), byte for byte as the protobuf
// encoding description gives them.
#include "export/protobuf_writer.h"

#include <catch2/catch.hpp>

namespace prof::exporter {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string bytes;
  for (int value : values) bytes += static_cast<char>(value);
  return bytes;
}

TEST_CASE("varint fields are key then base-128 value", "[export][protobuf]") {
  ProtoMessage message;
  message.AddVarint(1, 150);
  CHECK(message.bytes() == Bytes({0x08, 0x96, 0x01}));
  message.Clear();
  message.AddVarint(60, 0);  // field 60: a two-byte key
  CHECK(message.bytes() == Bytes({0xE0, 0x03, 0x00}));
  message.Clear();
  message.AddInt64(8, -1);  // ten bytes, as int64 varints are
  CHECK(message.bytes() ==
        Bytes({0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST_CASE("fixed64 fields are little-endian", "[export][protobuf]") {
  ProtoMessage message;
  message.AddFixed64(47, 0x0102030405060708);
  CHECK(message.bytes() == Bytes({0xF9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
}

TEST_CASE("strings and messages are length-delimited", "[export][protobuf]") {
  ProtoMessage inner;
  inner.AddBytes(2, "testing");
  CHECK(inner.bytes() == Bytes({0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}));
  ProtoMessage outer;
  outer.AddMessage(3, inner);
  CHECK(outer.bytes() == Bytes({0x1A, 0x09}) + inner.bytes());
  CHECK_FALSE(outer.empty());
}

}  // namespace
}  // namespace prof::exporter
