#include "injection/core/thread_buffer.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "injection/protocol/record_format.h"

namespace prof::injection {
namespace {

std::atomic<ThreadBuffer*> g_pool_head{nullptr};

// Raw system calls: the mmap wrappers may be interposed by the OS-runtime tracer. No huge pages:
// where transparent huge pages are "always", a ring's first record would make 2 MiB resident.
void* MapAnonymous(size_t bytes) {
  const long result =
      syscall(SYS_mmap, nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (result < 0 && result > -4096) return nullptr;
  syscall(SYS_madvise, result, bytes, MADV_NOHUGEPAGE);  // advice only: a failure changes nothing
  return reinterpret_cast<void*>(result);
}

}  // namespace

bool ThreadBuffer::TryAppend(const void* first, size_t first_size, const void* second,
                             size_t second_size) {
  const size_t total = protocol::AlignedRecordSize(first_size + second_size);
  // A header's size field is 16 bits: 65,536 would read as 0, a gap marker.
  if (total > UINT16_MAX) return false;
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
    // the marker is published with the record below, so the drainer sees both or neither. The
    // offset is a multiple of 8 and not 0, so the marker's kind and size lie before the ring's end.
    std::memset(data_ + (head & (kCapacity - 1)), 0, 4);
    gap_start_.store(head, std::memory_order_relaxed);  // published by the `head` store below
    head = NextLapStart(head);
  }
  if (kCapacity - (head - tail) < total) return false;
  // The ring is copied piecewise so that a record may wrap around its end.
  size_t offset = head & (kCapacity - 1);
  auto copy_in = [&](const void* source, size_t size) {
    const char* bytes = static_cast<const char*>(source);
    const size_t until_end = kCapacity - offset;
    if (size <= until_end) {
      std::memcpy(data_ + offset, bytes, size);
    } else {
      std::memcpy(data_ + offset, bytes, until_end);
      std::memcpy(data_, bytes + until_end, size - until_end);
    }
    offset = (offset + size) & (kCapacity - 1);
  };
  copy_in(first, first_size);
  if (second_size > 0) copy_in(second, second_size);
  static constexpr char kPadding[protocol::kRecordAlignment] = {};
  const size_t padding = total - first_size - second_size;
  if (padding > 0) copy_in(kPadding, padding);
  head_.store(head + total, std::memory_order_release);
  return true;
}

size_t ThreadBuffer::Drain(char* out, size_t capacity) {
  // `head` first: the owner moves `tail` only when it rewinds an empty ring, and before `head`.
  // So a `head` that shows records comes with the `tail` they follow, and an empty ring reads as
  // tail >= head, whether or not a rewind came in between.
  const uint64_t head = head_.load(std::memory_order_acquire);
  uint64_t tail = tail_.load(std::memory_order_acquire);
  if (tail >= head) return 0;  // no store: the owner may be rewinding
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

uint16_t ThreadBuffer::RecordSizeAt(uint64_t position) const {
  // Record sizes sit at byte 2 of each header; a record may wrap between those two bytes.
  const size_t size_offset = (position + 2) & (kCapacity - 1);
  uint16_t size;
  std::memcpy(&size, data_ + size_offset, 1);
  std::memcpy(reinterpret_cast<char*>(&size) + 1, data_ + ((size_offset + 1) & (kCapacity - 1)), 1);
  return size;
}

size_t ThreadBuffer::UsedBytes() const {
  // The owner's figure is exact. The drainer's may come from a rewind half done (new tail, old
  // head: nothing to drain) or from positions on both sides of it (an overstatement, at most the
  // capacity): the drainer stops on an empty Drain() anyway.
  const uint64_t tail = tail_.load(std::memory_order_acquire);
  const uint64_t head = head_.load(std::memory_order_acquire);
  if (head <= tail) return 0;
  uint64_t used = head - tail;
  // A gap the owner skipped and the drainer has not passed holds no records. The gap's start is
  // stored before the `head` that publishes it: a `head` that shows it comes with it.
  const uint64_t gap = gap_start_.load(std::memory_order_acquire);
  // (0 is no gap: a marker never sits at a lap's start.)
  if (gap != 0 && gap >= tail && gap < head) used -= NextLapStart(gap) - gap;
  return std::min<uint64_t>(used, kCapacity);
}

void ThreadBuffer::Reset() {
  head_.store(0, std::memory_order_relaxed);
  tail_.store(0, std::memory_order_relaxed);
  gap_start_.store(0, std::memory_order_relaxed);
  dropped.store(0, std::memory_order_relaxed);
  dropped_reported = 0;
  dropping = false;
}

ThreadBuffer* ThreadBuffer::MapNew() {
  void* memory = MapAnonymous(sizeof(ThreadBuffer));
  // Default-initialised, not value-initialised (`ThreadBuffer()`), which would zero the whole
  // ring and make all of it resident at once; fresh anonymous pages read as zero anyway.
  return memory != nullptr ? new (memory) ThreadBuffer : nullptr;
}

ThreadBuffer* AcquireThreadBuffer(uint32_t tid) {
  for (ThreadBuffer* buffer = FirstThreadBuffer(); buffer != nullptr; buffer = buffer->next) {
    ThreadBuffer::State expected = ThreadBuffer::State::kFree;
    // Claimed first, owned once the owner fields are written: readers of an owned buffer's
    // owner_tid (the drainer's dropped reports, thread naming) never see them half written.
    if (buffer->state.compare_exchange_strong(expected, ThreadBuffer::State::kClaimed,
                                              std::memory_order_acquire)) {
      buffer->owner_tid = tid;
      buffer->owner_thread = pthread_self();
      // The previous owner's overflow episode is over: its ring was drained.
      buffer->dropping = false;
      buffer->state.store(ThreadBuffer::State::kOwned, std::memory_order_release);
      return buffer;
    }
  }
  ThreadBuffer* buffer = ThreadBuffer::MapNew();
  if (buffer == nullptr) return nullptr;
  buffer->state.store(ThreadBuffer::State::kOwned, std::memory_order_relaxed);
  buffer->owner_tid = tid;
  buffer->owner_thread = pthread_self();
  ThreadBuffer* head = g_pool_head.load(std::memory_order_relaxed);
  do {
    buffer->next = head;
  } while (!g_pool_head.compare_exchange_weak(head, buffer, std::memory_order_release,
                                              std::memory_order_relaxed));
  return buffer;
}

ThreadBuffer* FirstThreadBuffer() { return g_pool_head.load(std::memory_order_acquire); }

}  // namespace prof::injection
