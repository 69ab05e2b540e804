// The shared-memory half of the record stream: per-thread record rings in segments that the traced
// process creates (System V shared memory) and the launcher attaches too, so the launcher reads
// records straight from the program's memory and still has every published record after the process
// died, however it died (exit, _exit, a fatal signal, SIGKILL, the OOM killer).
//
// A ThreadRing is a single-producer/single-consumer byte ring. The producer (the owning thread of
// the traced process) appends whole records and then publishes `head` with release semantics; the
// consumer (the launcher) copies bytes out of [tail, head) and publishes `tail`. Since `head` only
// moves past complete records, a record is visible only once complete. Before a record is
// written, the producer marks where (`writing`, the `head` it starts from); a producer that dies
// before publishing the record leaves the mark at or past `head`, and the launcher counts the
// record as torn (kTornRecords) once the process is gone. A mark `head` has passed is a record
// that arrived.
//
// A thread reuses the pages it has touched, so that the ring's memory stays what its largest
// backlog needed and writing costs no page faults once that memory is resident:
// - when the owner finds its ring empty it moves both positions to the ring's start;
// - a thread that emits steadily never finds it empty (the consumer takes longer to copy a batch
//   than the thread takes to add a record), so once the owner is kReuseBytes into the ring with a
//   backlog of at most a quarter of that, it writes a gap marker (a record header of size 0) and
//   goes on at the start of the ring's next lap. The consumer skips from a marker to that start.
//   A burst that outruns the consumer keeps going through the whole ring.
//
// The launcher trusts nothing in the shared memory: a program may scribble over it. Drain() stays
// inside the ring and returns at most `capacity` bytes whatever the positions and sizes say; what
// it returns is decoded (and its framing checked) like any other stream bytes.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "injection/protocol/record_format.h"

namespace prof::protocol {

class alignas(4096) ThreadRing {
 public:
  // Bytes, a power of two. 32 MiB hold ~320,000 NVTX ranges: a burst of back-to-back ranges
  // faster than any launcher drains (nvtx_cpu: 250,000 per thread in ~50 ms) is kept instead of
  // dropped. Only the pages a backlog needs become resident (see the rewind above).
  static constexpr size_t kCapacity = size_t{32} << 20;
  // How far into the ring a steadily emitting thread goes before it starts again at the ring's
  // start (see above): its resident ring is about this plus one drain interval's records.
  static constexpr size_t kReuseBytes = size_t{1} << 20;

  // kFree -> kClaimed (a thread is taking it, program side) -> kOwned -> kRetired (its thread
  // exited, program side) -> kFree (the launcher drained it once more). The launcher skips free
  // and claimed rings: both are empty.
  enum class State : uint32_t { kFree = 0, kOwned = 1, kRetired = 2, kClaimed = 3 };

  // Producer: copies `first` then `second` in as one record; false when the ring lacks the space.
  bool TryAppend(const void* first, size_t first_size, const void* second, size_t second_size);
  // Consumer: moves whole published records into `out`, at most `capacity` bytes; returns the byte
  // count. `capacity` must be at least the largest record size (64 KiB).
  size_t Drain(char* out, size_t capacity);
  // Bytes of records between the consumer and the producer (a skipped gap not counted). Inline:
  // the producer asks on every record whether its ring crossed half full.
  size_t UsedBytes() const {
    // The owner's figure is exact. The drainer's may come from a rewind half done (new tail, old
    // head: nothing to drain) or from positions on both sides of it (an overstatement, at most
    // the capacity): the drainer stops on an empty Drain() anyway.
    const uint64_t tail = tail_.load(std::memory_order_acquire);
    const uint64_t head = head_.load(std::memory_order_acquire);
    if (head <= tail) return 0;
    uint64_t used = head - tail;
    // A gap the owner skipped and the drainer has not passed holds no records. The gap's start is
    // stored before the `head` that publishes it: a `head` that shows it comes with it.
    const uint64_t gap = gap_start_.load(std::memory_order_acquire);
    // (0 is no gap: a marker never sits at a lap's start.)
    if (gap != 0 && gap >= tail && gap < head) used -= NextLapStart(gap) - gap;
    return used < kCapacity ? used : kCapacity;
  }
  // Producer: bytes between the consumer and the producer, a skipped gap the consumer has not
  // passed included: what stands between the producer and room for its records. (A full ring
  // whose drainer has yet to pass a gap holds few records but no room.)
  size_t OccupiedBytes() const {
    const uint64_t tail = tail_.load(std::memory_order_acquire);
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head <= tail) return 0;
    return head - tail < kCapacity ? head - tail : kCapacity;
  }
  // Producer: marks a record as being written from now on (before a wait for room, or before a
  // range leaves the open ranges), until TryAppend() publishes it or EndWrite() gives it up.
  void BeginWrite() {
    writing_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void EndWrite() { writing_.store(0, std::memory_order_release); }
  // Consumer, once the process is gone: whether it died with a record begun and not published.
  bool WriteCutShort() const;

  // Push/pop ranges open on the owning thread, innermost last: whole kNvtxPushPopRange records
  // (NvtxEventRecord, `level` set), kept here until they end so that the launcher can still write
  // them when the process ends first. 64 KiB: ~700 nested ranges of 20-character names.
  static constexpr size_t kOpenRangeBytes = size_t{64} << 10;
  // The fields of an open range's record besides its attributes and text (header.size and
  // text_length follow from the text).
  struct RangeOpening {
    RecordKind kind;  // kNvtxPushPopRange or kNvtxPushPopRangeTicks
    uint32_t tid;
    uint64_t start;  // in the kind's time base
    uint64_t domain_id;
    uint64_t level;
  };
  // Producer: writes a range's record and its text in place. False when the open ranges' memory
  // is full.
  bool OpenRange(const RangeOpening& opening, const NvtxRangeAttributes& attributes,
                 const char* text, size_t text_size);
  // A range CloseRange() took: its whole record as its push left it, in the open ranges.
  struct ClosedRange {
    const char* bytes = nullptr;  // null: no such open range
    size_t size = 0;
    uint32_t offset = 0;    // where it sits in the open ranges
    uint32_t open_end = 0;  // the open ranges' bytes before it closed
  };
  // Producer: takes the innermost open range of `domain_id` at `level`, without copying it. The
  // range and those above it are hidden from the launcher and the range is marked as being
  // written (BeginWrite) until EndClose(); in between, the caller appends it to the ring ended
  // (AppendClosedRange, or EndInPlace and TryAppend; either publishes it, EndWrite() says it was
  // dropped).
  ClosedRange CloseRange(uint64_t domain_id, uint64_t level);
  // Producer: appends the closed range to the ring, ended at `end_ns` (kPopped); false when the
  // ring lacks the space.
  bool AppendClosedRange(const ClosedRange& range, uint64_t end_ns);
  // Producer: ends the closed range where it lies, for a caller that copies it itself.
  void EndInPlace(const ClosedRange& range, uint64_t end_ns);
  // Producer: removes the closed range, moving the open ranges above it down into its place.
  void EndClose(const ClosedRange& range);
  // Consumer, once the process is gone: copies the open ranges (whole records, as the producer
  // left them) into `out`, at most `capacity` bytes; returns the byte count.
  size_t CopyOpenRanges(char* out, size_t capacity) const;
  // Consumer, on a retired ring whose open ranges it took: the next owner starts with none.
  void ClearOpenRanges() {
    open_count_ = 0;  // no owner runs now: the next one claims the ring after this
    open_bytes_.store(0, std::memory_order_release);
  }

  std::atomic<State> state{State::kFree};
  uint32_t owner_tid = 0;
  // Records the producer dropped (ring full, a signal handler inside its own thread's Emit); the
  // launcher reports the difference since its last look.
  std::atomic<uint64_t> dropped{0};
  // Push/pop ranges the producer dropped because its open ranges' memory (kOpenRangeBytes) was
  // full: nested ~700 levels deep. Reported like `dropped`, under a cause of their own.
  std::atomic<uint64_t> too_deep{0};
  // Program side only: the owning thread (thread naming), and whether it is in an overflow episode.
  pthread_t owner_thread{};
  bool dropping = false;

 private:
  static constexpr uint64_t NextLapStart(uint64_t position) {
    return (position | (kCapacity - 1)) + 1;
  }
  static constexpr uint64_t kNoRoom = ~uint64_t{0};
  // Producer: where the next record of `total` bytes starts, after a rewind or a gap marker (see
  // above), marked as being written; kNoRoom when the ring lacks the space.
  uint64_t PlaceRecord(size_t total);
  // Producer: copies `size` bytes to `position` on, wrapping around the ring's end.
  void CopyIn(uint64_t position, const void* bytes, size_t size);
  // Producer: publishes the records before `head`.
  void Publish(uint64_t head);
  // An NvtxEventRecord's end and its kPopped ending, in `record`.
  static void StoreEnd(char* record, uint64_t end_ns);
  // The size field of the record (or gap marker) that starts at `position`.
  uint16_t RecordSizeAt(uint64_t position) const;
  // Where the innermost open range of `domain_id` at `level` starts among the `used` bytes of open
  // ranges, and its size; false when there is none.
  bool FindOpenRange(uint64_t domain_id, uint64_t level, uint32_t used, uint32_t* offset,
                     uint16_t* size) const;
  // Sets open_starts_ from the open ranges themselves (after one was taken from their middle).
  __attribute__((noinline)) void RecountOpenRanges(uint32_t used);

  alignas(64) std::atomic<uint64_t> head_{0};  // written by the producer
  // Where the producer's latest gap marker sits (0: none yet); written by the producer.
  std::atomic<uint64_t> gap_start_{0};
  // 0, or 1 + the `head` a record being written starts from; written by the producer.
  std::atomic<uint64_t> writing_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};  // written by the consumer
  // Bytes of open ranges (whole records from open_ranges_[0]); written by the producer.
  alignas(64) std::atomic<uint32_t> open_bytes_{0};
  // Producer only: where each open range starts, innermost last, so that a pop finds the range
  // it ends without walking the others (it is the innermost of all unless domains interleave).
  // A hint: CloseRange checks the innermost start against the ranges and searches when it
  // misses (after the launcher cleared a ring, or a program wrote over the ranges).
  static constexpr uint32_t kMaxOpenRanges = kOpenRangeBytes / 64;
  uint32_t open_count_ = 0;
  uint32_t open_starts_[kMaxOpenRanges];
  alignas(64) char open_ranges_[kOpenRangeBytes];
  alignas(64) char data_[kCapacity];
};

// A segment: one System V shared memory segment of the traced process, a header page followed by
// `ring_count` rings. The process announces each segment it makes with a kRingSegment record on
// its socket.
// Rings per segment: 512 MiB of address space, of which only what threads write becomes memory.
inline constexpr uint32_t kRingsPerSegment = 16;
// Segments per process: 1,024 threads that record at the same time.
inline constexpr uint32_t kMaxRingSegments = 64;

struct RingSegmentHeader {
  uint32_t magic;  // kRingSegmentMagic
  uint32_t version;
  uint32_t ring_count;
  uint32_t reserved;
  // Records lost before the process had a ring to count them in (no shared memory for a new
  // thread's ring); counted in the first segment.
  std::atomic<uint64_t> dropped_without_ring;
  // Set in the first segment when the process runs exit(): its end is not a death, even when it
  // could not say so on its socket (closed by the program, or full).
  std::atomic<uint32_t> exiting;
  // Set in the first segment by the launcher when it stops reading the process (the process
  // outlives it): a segment the process makes after that is removed by the process itself, as
  // no launcher will attach and remove it.
  std::atomic<uint32_t> launcher_gone;
  // In the first segment: the System V ids of the process's later segments in order, each plus
  // one (0: not made yet), published before any of their rings is used. Only the first segment is
  // announced on the socket; the launcher finds the others here, so a process grows without any
  // descriptor (a program may close them all).
  std::atomic<int32_t> later_segment_ids[kMaxRingSegments - 1];
};

inline constexpr uint32_t kRingSegmentMagic = 0x474e4952;  // "RING" little-endian
inline constexpr uint32_t kRingSegmentVersion = 5;
inline constexpr size_t kRingSegmentHeaderBytes = 4096;
static_assert(sizeof(RingSegmentHeader) <= kRingSegmentHeaderBytes);

constexpr size_t RingSegmentBytes(uint32_t ring_count) {
  return kRingSegmentHeaderBytes + size_t{ring_count} * sizeof(ThreadRing);
}

inline ThreadRing* RingInSegment(void* segment, uint32_t index) {
  return reinterpret_cast<ThreadRing*>(static_cast<char*>(segment) + kRingSegmentHeaderBytes +
                                       size_t{index} * sizeof(ThreadRing));
}

}  // namespace prof::protocol
