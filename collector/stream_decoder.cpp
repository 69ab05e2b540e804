#include "collector/stream_decoder.h"

#include <cstdint>
#include <cstring>

namespace prof::collector {

void StreamDecoder::Feed(const char* data, size_t size) {
  if (Failed()) return;
  Compact();
  buffer_.insert(buffer_.end(), data, data + size);
}

void StreamDecoder::Compact() {
  if (read_offset_ == 0) return;
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(read_offset_));
  read_offset_ = 0;
}

const protocol::RecordHeader* StreamDecoder::Next() {
  if (Failed() || PendingBytes() < sizeof(protocol::RecordHeader)) return nullptr;
  const char* start = buffer_.data() + read_offset_;
  protocol::RecordHeader header;
  std::memcpy(&header, start, sizeof(header));
  if (header.size < sizeof(header) || header.size % protocol::kRecordAlignment != 0) {
    error_ = "corrupt record stream (record size " + std::to_string(header.size) + ")";
    return nullptr;
  }
  if (PendingBytes() < header.size) return nullptr;
  if (!saw_hello_) {
    protocol::StreamHello hello{};
    if (header.kind != protocol::RecordKind::kStreamHello || header.size < sizeof(hello)) {
      error_ = "stream does not start with a hello record";
      return nullptr;
    }
    std::memcpy(&hello, start, sizeof(hello));
    if (hello.magic != protocol::kStreamMagic || hello.version != protocol::kStreamVersion) {
      error_ = "stream from an incompatible prof injection (version " +
               std::to_string(hello.version) + ")";
      return nullptr;
    }
    saw_hello_ = true;
  }
  read_offset_ += header.size;
  // Record sizes are multiples of 8, so records stay aligned as long as the buffer is.
  if (reinterpret_cast<uintptr_t>(start) % protocol::kRecordAlignment == 0) {
    return reinterpret_cast<const protocol::RecordHeader*>(start);
  }
  std::memcpy(aligned_, start, header.size);
  return reinterpret_cast<const protocol::RecordHeader*>(aligned_);
}

}  // namespace prof::collector
