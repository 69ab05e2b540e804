#include "collector/perf_events/perf_ring.h"

#include <cstring>

namespace prof::collector::perf {

PerfRing::PerfRing(perf_event_mmap_page* meta, uint8_t* data, uint64_t data_size)
    : meta_(meta), data_(data), size_(data_size) {}

void PerfRing::BeginPass() {
  head_ = __atomic_load_n(&meta_->data_head, __ATOMIC_ACQUIRE);
  // Only this reader writes data_tail, so a plain read is current.
  tail_ = meta_->data_tail;
}

bool PerfRing::Next(PerfSpan<uint8_t>* record, uint64_t* malformed_bytes) {
  if (tail_ >= head_) return false;
  const uint64_t offset = tail_ & (size_ - 1);
  perf_event_header header;
  std::memcpy(&header, data_ + offset, sizeof(header));
  const uint64_t available = head_ - tail_;
  if (header.size < sizeof(header) || header.size % 8 != 0 || header.size > available) {
    *malformed_bytes += available;
    tail_ = head_;
    return false;
  }
  const uint64_t first_part = size_ - offset;
  if (header.size <= first_part) {
    *record = {data_ + offset, header.size};
  } else {
    scratch_.resize(header.size);
    std::memcpy(scratch_.data(), data_ + offset, first_part);
    std::memcpy(scratch_.data() + first_part, data_, header.size - first_part);
    *record = {scratch_.data(), header.size};
  }
  tail_ += header.size;
  return true;
}

void PerfRing::EndPass() { __atomic_store_n(&meta_->data_tail, tail_, __ATOMIC_RELEASE); }

uint64_t PerfRing::PendingBytes() const {
  return __atomic_load_n(&meta_->data_head, __ATOMIC_ACQUIRE) - meta_->data_tail;
}

}  // namespace prof::collector::perf
