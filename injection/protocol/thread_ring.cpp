#include "injection/protocol/thread_ring.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>

#include "injection/protocol/record_format.h"

namespace prof::protocol {
uint64_t ThreadRing::PlaceRecord(size_t total) {
  // A header's size field is 16 bits: 65,536 would read as 0, a gap marker.
  if (total > UINT16_MAX) return kNoRoom;
  uint64_t head = head_.load(std::memory_order_relaxed);
  uint64_t tail = tail_.load(std::memory_order_acquire);
  if (head == tail && (head & (kCapacity - 1)) != 0) {
    // Empty: start again at the ring's beginning, so that a thread keeps reusing the pages it has
    // touched instead of walking through (and keeping resident) the whole ring. Both positions
    // move to the next multiple of the capacity; the drainer stores `tail` only after draining
    // something or passing a gap marker, neither of which it can while the ring is empty, and it
    // reads `head` first, so it sees either the old positions or the new ones.
    head = tail = NextLapStart(head);
    tail_.store(tail, std::memory_order_relaxed);
    head_.store(head, std::memory_order_release);
  } else if ((head & (kCapacity - 1)) >= kReuseBytes && head / kCapacity == tail / kCapacity &&
             head - tail <= kReuseBytes / 4) {
    // Not empty, but the drainer keeps up: the backlog is small and lies in this lap, at least
    // 3/4 of kReuseBytes from the ring's start. Mark the rest of the lap as a gap and go on at the
    // start, which then has room for three times the backlog while the drainer catches up. (A
    // thread that outruns the drainer, a burst, has a larger backlog and goes on through the
    // whole ring instead, which is what the ring's size is for.) A zero size is never a record's;
    // the marker is published with the record after it, so the drainer sees both or neither. The
    // offset is a multiple of 8 and not 0, so the marker's kind and size lie before the ring's end.
    std::memset(data_ + (head & (kCapacity - 1)), 0, 4);
    gap_start_.store(head, std::memory_order_relaxed);  // published by the next `head` store
    head = NextLapStart(head);
  }
  if (kCapacity - (head - tail) < total) return kNoRoom;
  // Marked until `head` publishes the record (unless a caller marked it earlier): a death in
  // between leaves the mark for the launcher.
  if (writing_.load(std::memory_order_relaxed) == 0) BeginWrite();
  return head;
}

void ThreadRing::CopyIn(uint64_t position, const void* source, size_t size) {
  // Piecewise, so that a record may wrap around the ring's end.
  const size_t offset = position & (kCapacity - 1);
  const char* bytes = static_cast<const char*>(source);
  const size_t until_end = kCapacity - offset;
  if (size <= until_end) {
    std::memcpy(data_ + offset, bytes, size);
  } else {
    std::memcpy(data_ + offset, bytes, until_end);
    std::memcpy(data_, bytes + until_end, size - until_end);
  }
}

void ThreadRing::Publish(uint64_t head) {
  head_.store(head, std::memory_order_release);
  writing_.store(0, std::memory_order_release);
}

bool ThreadRing::TryAppend(const void* first, size_t first_size, const void* second,
                           size_t second_size) {
  const size_t total = AlignedRecordSize(first_size + second_size);
  const uint64_t head = PlaceRecord(total);
  if (head == kNoRoom) return false;
  CopyIn(head, first, first_size);
  if (second_size > 0) CopyIn(head + first_size, second, second_size);
  static constexpr char kPadding[kRecordAlignment] = {};
  const size_t padding = total - first_size - second_size;
  if (padding > 0) CopyIn(head + first_size + second_size, kPadding, padding);
  Publish(head + total);
  return true;
}

size_t ThreadRing::Drain(char* out, size_t capacity) {
  // `head` first: the owner moves `tail` only when it rewinds an empty ring, and before `head`.
  // So a `head` that shows records comes with the `tail` they follow, and an empty ring reads as
  // tail >= head, whether or not a rewind came in between.
  const uint64_t head = head_.load(std::memory_order_acquire);
  uint64_t tail = tail_.load(std::memory_order_acquire);
  if (tail >= head) return 0;  // no store: the owner may be rewinding
  // More than a ring's worth between them: not positions this ring's producer wrote (a program
  // that wrote over its ring). Nothing is read, so a drain to the end still ends.
  if (head - tail > kCapacity) return 0;
  if (RecordSizeAt(tail) == 0) {
    // A gap marker: the owner went on at the next lap's start. Not empty before (the marker is
    // there) nor after (the owner publishes a record with the marker), so the owner, which moves
    // `tail` only in an empty ring, is not moving it now.
    tail = NextLapStart(tail);
    tail_.store(tail, std::memory_order_release);
  }
  uint64_t end = tail;
  // Stop at the last whole record that fits, or at a gap marker, which is then passed too.
  uint64_t new_tail = 0;
  while (end < head) {
    const uint16_t size = RecordSizeAt(end);
    if (size == 0) {
      new_tail = NextLapStart(end);  // visible only with a record published past it
      break;
    }
    if (end + size - tail > capacity) break;
    end += size;
  }
  const size_t count = end - tail;
  const size_t offset = tail & (kCapacity - 1);
  const size_t until_end = kCapacity - offset;
  if (count <= until_end) {
    std::memcpy(out, data_ + offset, count);
  } else {
    std::memcpy(out, data_ + offset, until_end);
    std::memcpy(out + until_end, data_, count - until_end);
  }
  tail_.store(new_tail != 0 ? new_tail : end, std::memory_order_release);
  return count;
}

bool ThreadRing::OpenRange(const RangeOpening& opening, const NvtxRangeAttributes& attributes,
                           const char* text, size_t text_size) {
  const size_t total = AlignedRecordSize(sizeof(NvtxEventRecord) + text_size);
  const uint32_t used = open_bytes_.load(std::memory_order_relaxed);
  if (total > UINT16_MAX || used > kOpenRangeBytes || kOpenRangeBytes - used < total) return false;
  BeginWrite();  // a death before the range is whole here cuts it
  // Field by field where it lies: entries start at multiples of kRecordAlignment.
  auto* record = new (open_ranges_ + used) NvtxEventRecord;
  record->header = {opening.kind, static_cast<uint16_t>(total), opening.tid, opening.start};
  record->domain_id = opening.domain_id;
  record->level = opening.level;
  record->registered_string_id = attributes.registered_string_id;
  record->payload_bits = attributes.payload_bits;
  record->category = attributes.category;
  record->color = attributes.color;
  record->has_color = attributes.has_color;
  record->message_kind = attributes.message_kind;
  record->payload_kind = attributes.payload_kind;
  record->ending = NvtxRangeEnding::kPopped;  // the launcher's, for a range open at the end
  record->text_length = static_cast<uint32_t>(text_size);
  if (text_size > 0) {
    // The padding is the zeroed last word, which the text then partly covers.
    char* entry = open_ranges_ + used;
    constexpr uint64_t kZero = 0;
    std::memcpy(entry + total - sizeof(kZero), &kZero, sizeof(kZero));
    std::memcpy(entry + sizeof(NvtxEventRecord), text, text_size);
  }
  // Published whole: the launcher reads [0, open_bytes_) only.
  open_bytes_.store(used + static_cast<uint32_t>(total), std::memory_order_release);
  EndWrite();
  // The starts are a hint CloseRange checks against the ranges themselves, so a stale or
  // incomplete list costs a search, never a wrong range.
  if (used == 0) open_count_ = 0;
  if (open_count_ < kMaxOpenRanges) open_starts_[open_count_++] = used;
  return true;
}

bool ThreadRing::FindOpenRange(uint64_t domain_id, uint64_t level, uint32_t used, uint32_t* offset,
                               uint16_t* size) const {
  // Only the three fields compared are read: copying each whole record out cost the pop more
  // than the rest of its search.
  auto matches = [&](uint32_t at, uint16_t* entry_size) {
    const char* entry = open_ranges_ + at;
    uint64_t entry_domain;
    uint64_t entry_level;
    std::memcpy(entry_size, entry + offsetof(RecordHeader, size), sizeof(*entry_size));
    std::memcpy(&entry_domain, entry + offsetof(NvtxEventRecord, domain_id), sizeof(entry_domain));
    std::memcpy(&entry_level, entry + offsetof(NvtxEventRecord, level), sizeof(entry_level));
    return entry_domain == domain_id && entry_level == level;
  };
  // The innermost range of all, where the producer's starts say it is and its size confirms.
  if (open_count_ > 0 && open_count_ <= kMaxOpenRanges) {
    const uint32_t top = open_starts_[open_count_ - 1];
    uint16_t top_size = 0;
    if (top < used && used - top >= sizeof(NvtxEventRecord) && matches(top, &top_size) &&
        top_size == used - top) {
      *offset = top;
      *size = top_size;
      return true;
    }
  }
  // Otherwise the innermost of the domain is its last entry: ranges of other domains may sit
  // above it (NVTX nests per domain).
  bool found = false;
  for (uint32_t at = 0; at + sizeof(NvtxEventRecord) <= used;) {
    uint16_t entry_size = 0;
    const bool match = matches(at, &entry_size);
    if (entry_size < sizeof(NvtxEventRecord)) break;  // not written by this thread: stop
    if (match && entry_size <= used - at) {
      *offset = at;
      *size = entry_size;
      found = true;
    }
    at += entry_size;
  }
  return found;
}

ThreadRing::ClosedRange ThreadRing::CloseRange(uint64_t domain_id, uint64_t level) {
  const uint32_t used = open_bytes_.load(std::memory_order_relaxed);
  if (used > kOpenRangeBytes) return {};
  uint32_t found = 0;
  uint16_t found_size = 0;
  if (!FindOpenRange(domain_id, level, used, &found, &found_size)) return {};
  BeginWrite();
  // The launcher sees the ranges below only until EndClose() (a death in between loses the range
  // and those above it, counted as torn).
  open_bytes_.store(found, std::memory_order_release);
  return {open_ranges_ + found, found_size, found, used};
}

void ThreadRing::StoreEnd(char* record, uint64_t end_ns) {
  const NvtxRangeEnding ending = NvtxRangeEnding::kPopped;
  std::memcpy(record + offsetof(NvtxEventRecord, end_ns), &end_ns, sizeof(end_ns));
  std::memcpy(record + offsetof(NvtxEventRecord, ending), &ending, sizeof(ending));
}

void ThreadRing::EndInPlace(const ClosedRange& range, uint64_t end_ns) {
  StoreEnd(open_ranges_ + range.offset, end_ns);
}

bool ThreadRing::AppendClosedRange(const ClosedRange& range, uint64_t end_ns) {
  const uint64_t head = PlaceRecord(range.size);
  if (head == kNoRoom) return false;
  const size_t offset = head & (kCapacity - 1);
  if (kCapacity - offset >= range.size) {
    // The usual case: the range copied as its push left it, ended in the copy. (Ending it in the
    // open ranges first made the copy's loads wait for those stores to reach the cache.)
    std::memcpy(data_ + offset, range.bytes, range.size);
    StoreEnd(data_ + offset, end_ns);
  } else {
    EndInPlace(range, end_ns);  // the copy wraps around the ring's end
    CopyIn(head, range.bytes, range.size);
  }
  Publish(head + range.size);
  return true;
}

void ThreadRing::EndClose(const ClosedRange& range) {
  const uint32_t end = range.offset + static_cast<uint32_t>(range.size);
  const uint32_t above = range.open_end - end;
  if (above > 0) std::memmove(open_ranges_ + range.offset, open_ranges_ + end, above);
  open_bytes_.store(range.offset + above, std::memory_order_release);
  if (above == 0 && open_count_ > 0 && open_starts_[open_count_ - 1] == range.offset) {
    --open_count_;
  } else {
    RecountOpenRanges(range.offset + above);
  }
}

void ThreadRing::RecountOpenRanges(uint32_t used) {
  open_count_ = 0;
  for (uint32_t at = 0; at + sizeof(RecordHeader) <= used;) {
    uint16_t size;
    std::memcpy(&size, open_ranges_ + at + offsetof(RecordHeader, size), sizeof(size));
    if (size == 0 || open_count_ == kMaxOpenRanges) {
      open_count_ = 0;  // unknown: CloseRange searches
      return;
    }
    open_starts_[open_count_++] = at;
    at += size;
  }
}

size_t ThreadRing::CopyOpenRanges(char* out, size_t capacity) const {
  const size_t used =
      std::min<size_t>(open_bytes_.load(std::memory_order_acquire), kOpenRangeBytes);
  const size_t count = std::min(used, capacity);
  std::memcpy(out, open_ranges_, count);
  return count;
}

bool ThreadRing::WriteCutShort() const {
  const uint64_t mark = writing_.load(std::memory_order_acquire);
  // Published after the mark was set (the producer clears it right after): the record arrived.
  return mark != 0 && mark - 1 >= head_.load(std::memory_order_acquire);
}

uint16_t ThreadRing::RecordSizeAt(uint64_t position) const {
  // Record sizes sit at byte 2 of each header; a record may wrap between those two bytes.
  const size_t size_offset = (position + 2) & (kCapacity - 1);
  uint16_t size;
  std::memcpy(&size, data_ + size_offset, 1);
  std::memcpy(reinterpret_cast<char*>(&size) + 1, data_ + ((size_offset + 1) & (kCapacity - 1)), 1);
  return size;
}

}  // namespace prof::protocol
