// Reading a record's fixed struct out of the stream's bytes.
#pragma once

#include <cstring>

#include "injection/protocol/record_format.h"

namespace prof::collector {

// A copy of the fixed struct `Record` that starts at `header`, copied rather than cast because the
// stream's bytes hold no Record object. The caller knows header.size >= sizeof(Record):
// RecordDispatcher checks it before calling a handler.
template <typename Record>
Record Copy(const protocol::RecordHeader& header) {
  Record record;
  std::memcpy(&record, &header, sizeof(record));
  return record;
}

}  // namespace prof::collector
