// Per-thread record rings of one process, and the pool that hands them out.
//
// Each thread that emits owns one ThreadBuffer: a single-producer/single-consumer byte ring. The
// owning thread appends whole records and then publishes `head`; the drainer (the stream's flusher
// thread, or the exit path, serialised by the stream) copies bytes out of [tail, head) and
// publishes `tail`. Since `head` only moves past complete records, every drained span holds whole
// records.
//
// A thread reuses the pages it has touched, so that the ring's memory stays what its largest
// backlog needed and writing costs no page faults once that memory is resident:
// - when the owner finds its ring empty it moves both positions to the ring's start;
// - a thread that emits steadily never finds it empty (the drainer takes longer to copy a batch
//   than the thread takes to add a record), so once the owner is kReuseBytes into the ring with a
//   backlog of at most a quarter of that, it writes a gap marker (a record header of size 0) and
//   goes on at the start of the ring's next lap. The drainer skips from a marker to that start.
//   A burst that outruns the drainer keeps going through the whole ring.
// Buffers live in anonymous private memory, so a fork child gets its own copies.
//
// Buffers are never unmapped: when their thread exits they are retired, drained one last time and
// then reused by a new thread, so memory stays bounded by the peak number of live threads.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace prof::injection {

class ThreadBuffer {
 public:
  // Bytes, a power of two. 32 MiB hold ~320,000 NVTX ranges: a burst of back-to-back ranges
  // faster than any launcher drains (nvtx_cpu: 250,000 per thread in ~50 ms) is kept instead of
  // dropped. Only the pages a backlog needs become resident (see the rewind above).
  static constexpr size_t kCapacity = size_t{32} << 20;
  // How far into the ring a steadily emitting thread goes before it starts again at the ring's
  // start (see above): its resident ring is about this plus one flush interval's records.
  static constexpr size_t kReuseBytes = size_t{1} << 20;

  // kFree -> kClaimed (a thread is taking it) -> kOwned -> kRetired (its thread exited; drained
  // once more) -> kFree. Drainers skip free and claimed buffers: both are empty.
  enum class State : uint32_t { kFree = 0, kOwned = 1, kRetired = 2, kClaimed = 3 };

  // A buffer in fresh anonymous memory, whose pages become resident only as they are written;
  // nullptr when memory is exhausted. Async-signal-safe (a raw mmap system call); never unmapped.
  static ThreadBuffer* MapNew();

  // Copies `first` then `second` in as one record; false when the ring lacks the space.
  bool TryAppend(const void* first, size_t first_size, const void* second, size_t second_size);
  // Moves whole published records into `out`, at most `capacity` bytes; returns the byte count.
  // `capacity` must be at least the largest record size (64 KiB).
  size_t Drain(char* out, size_t capacity);
  // Bytes of records between the drainer and the owner (a skipped gap not counted).
  size_t UsedBytes() const;
  // Forgets all content (fork child, reuse).
  void Reset();

  std::atomic<State> state{State::kFree};
  uint32_t owner_tid = 0;
  pthread_t owner_thread{};
  // Records this thread dropped; the drainer reports the difference since its last look.
  std::atomic<uint64_t> dropped{0};
  uint64_t dropped_reported = 0;  // drainer-side
  // Set after a bounded wait failed; cleared when the ring is half empty again.
  bool dropping = false;
  ThreadBuffer* next = nullptr;  // pool list, immutable once published

 private:
  static constexpr uint64_t NextLapStart(uint64_t position) {
    return (position | (kCapacity - 1)) + 1;
  }
  // The size field of the record (or gap marker) that starts at `position`.
  uint16_t RecordSizeAt(uint64_t position) const;

  alignas(64) std::atomic<uint64_t> head_{0};  // written by the owner
  // Where the owner's latest gap marker sits (0: none yet); written by the owner.
  std::atomic<uint64_t> gap_start_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};  // written by the drainer
  alignas(64) char data_[kCapacity];
};

// Claims a free (or new) buffer for the calling thread; nullptr when memory is exhausted.
// Async-signal-safe: lock-free list, memory from a raw mmap system call.
ThreadBuffer* AcquireThreadBuffer(uint32_t tid);

// Head of the pool list, for drainers.
ThreadBuffer* FirstThreadBuffer();

}  // namespace prof::injection
