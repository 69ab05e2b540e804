// Record streams as the injection sends them, built byte by byte for the collector's tests.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "injection/protocol/record_format.h"

namespace prof::test {

// The StreamHello that opens every connection.
inline std::vector<char> Hello(uint32_t pid, const std::string& name) {
  using namespace protocol;
  StreamHello hello{};
  hello.header = {RecordKind::kStreamHello,
                  static_cast<uint16_t>(AlignedRecordSize(sizeof(hello) + name.size())), pid, 7};
  hello.magic = kStreamMagic;
  hello.version = kStreamVersion;
  hello.pid = pid;
  hello.text_length = static_cast<uint32_t>(name.size());
  std::vector<char> bytes(hello.header.size, 0);
  std::memcpy(bytes.data(), &hello, sizeof(hello));
  std::memcpy(bytes.data() + sizeof(hello), name.data(), name.size());
  return bytes;
}

}  // namespace prof::test
