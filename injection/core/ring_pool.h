// The process's thread rings (injection/protocol/thread_ring.h) and the shared-memory segments
// they live in.
//
// Each segment is a System V shared memory segment the launcher attaches too; the pool makes one
// when the process's stream starts, hands it to `announce` (which sends its id to the launcher),
// and makes another whenever every ring is taken, published in the first segment's header
// (RingSegmentHeader::later_segment_ids) before any ring of it is used: growing needs no
// descriptor. Rings of exited
// threads are retired, drained once more by the launcher and then reused, so memory stays bounded
// by the peak number of live threads that emit.
#pragma once

#include <cstdint>

#include "injection/protocol/thread_ring.h"

namespace prof::injection {

// Sends a new segment's id to the launcher; false when it could not.
using SegmentAnnouncer = bool (*)(int segment_id, uint32_t ring_count);

// Makes and announces the process's first segment. Returns 0, or the errno of the System V call
// that failed (the stream then stays off), or -1 when the launcher could not be told.
int StartRingPool(SegmentAnnouncer announce);

// Says in the first segment that the process is exiting normally (exit(), not a death).
void MarkRingPoolExiting();

// Claims a free ring (or one in a new segment) for the calling thread; nullptr when no ring can
// be had (counted in the first segment's dropped_without_ring). Async-signal-safe: lock-free
// claims, raw system calls; a new segment is made under a flag no signal handler of the same
// thread can meet, since Emit drops records of a handler that interrupts its own thread's Emit.
protocol::ThreadRing* AcquireRing(uint32_t tid);

// Counts a record lost because its thread had no ring.
void CountDroppedWithoutRing();

// Calls `visit` with every ring of the process, claimed or not.
template <typename Visit>
void ForEachRing(Visit visit);

// Fork child: forgets the parent's segments, still attached in the child and shared with the
// parent, without touching their contents (they are the parent's, which goes on writing them).
// Each is replaced by private memory at the same address rather than detached: a signal handler
// that forked while its thread was inside Emit returns into a copy that then lands there
// harmlessly, instead of faulting.
void ForgetInheritedRings();

namespace ring_pool_detail {
constexpr uint32_t kMaxSegments = protocol::kMaxRingSegments;
extern std::atomic<void*> segments[kMaxSegments];
}  // namespace ring_pool_detail

template <typename Visit>
void ForEachRing(Visit visit) {
  for (uint32_t s = 0; s < ring_pool_detail::kMaxSegments; ++s) {
    void* segment = ring_pool_detail::segments[s].load(std::memory_order_acquire);
    if (segment == nullptr) return;
    for (uint32_t r = 0; r < protocol::kRingsPerSegment; ++r) {
      visit(protocol::RingInSegment(segment, r));
    }
  }
}

}  // namespace prof::injection
