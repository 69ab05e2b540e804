// Splits one connection's byte stream into whole records.
//
// Contract: Feed() appends bytes as they arrive (any chunking); Next() yields each complete record
// in order, validated only for framing (size ≥ header, multiple of 8). The first record must be a
// StreamHello with prof's magic and version, else the stream is rejected (Failed() turns true and
// nothing more is yielded). Memory is bounded by the largest record plus one read chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "injection/protocol/record_format.h"

namespace prof::collector {

class StreamDecoder {
 public:
  void Feed(const char* data, size_t size);
  // The next complete record, or nullptr when more bytes are needed (or the stream failed).
  // The pointer stays valid until the next Feed() or Next().
  const protocol::RecordHeader* Next();

  bool Failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Bytes received that never formed a whole record (a stream cut mid-record).
  size_t PendingBytes() const { return buffer_.size() - read_offset_; }

 private:
  void Compact();

  std::vector<char> buffer_;
  size_t read_offset_ = 0;
  bool saw_hello_ = false;
  std::string error_;
  // Records are copied here when their bytes are not 8-byte aligned inside buffer_.
  alignas(8) char aligned_[65536 + 16];
};

}  // namespace prof::collector
