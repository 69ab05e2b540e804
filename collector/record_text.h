// Reading the text that trails a record's fixed part (names, NVTX messages).
#pragma once

#include <cstdint>
#include <string_view>

#include "injection/protocol/record_format.h"

namespace prof::collector {

// The `text_length` bytes after the fixed struct `Record`, clipped to the record's size so that a
// corrupt length can never read past the record.
template <typename Record>
std::string_view TrailingText(const protocol::RecordHeader& header, uint32_t text_length) {
  const size_t available = header.size > sizeof(Record) ? header.size - sizeof(Record) : 0;
  return {reinterpret_cast<const char*>(&header) + sizeof(Record),
          text_length < available ? text_length : available};
}

}  // namespace prof::collector
