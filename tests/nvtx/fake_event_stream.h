// A stand-in for libprof_core's event stream, compiled into the injection test executable. The
// executable exports the prof::injection entry points, so when NVTX dlopens libprof_nvtx.so its
// calls bind here (the executable comes first in symbol lookup) instead of to libprof_core.so:
// records land in memory where tests can read them, and no launcher is needed.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "injection/protocol/record_format.h"

namespace prof::test {

// One emitted record as its bytes (header.size long, text included, padding zeroed).
struct CapturedRecord {
  std::vector<char> bytes;

  protocol::RecordKind kind() const { return header().kind; }
  protocol::RecordHeader header() const { return As<protocol::RecordHeader>(); }
  template <typename Record>
  Record As() const {
    Record record;
    std::memcpy(&record, bytes.data(), sizeof(record));
    return record;
  }
  // The `length` bytes of text after the fixed struct `Record`.
  template <typename Record>
  std::string Text(uint32_t length) const {
    return std::string(bytes.data() + sizeof(Record), length);
  }
};

// Every record emitted since the last call, in emission order; clears the list.
std::vector<CapturedRecord> TakeCapturedRecords();

}  // namespace prof::test
