#include "injection/core/ring_pool.h"

#include <linux/futex.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <new>

namespace prof::injection {
namespace ring_pool_detail {
std::atomic<void*> segments[kMaxSegments];
}  // namespace ring_pool_detail

namespace {

using protocol::RingSegmentHeader;
using protocol::ThreadRing;
using ring_pool_detail::kMaxSegments;
using ring_pool_detail::segments;

SegmentAnnouncer g_announce = nullptr;
// 1 while the one thread that makes a new segment does; the others sleep on it (a futex) until it
// is done. Sleeping, not polling: 1,000 threads starting at once on 2 cores polled the maker off
// the CPU, and some gave up (records_without_ring) after 100 ms.
std::atomic<int> g_growing{0};
static_assert(sizeof(std::atomic<int>) == sizeof(int));
// How long a thread waits for other threads' new segments before dropping its record: rounds of
// at most 10 ms (one round per segment another thread made, as the 16 rings of each go to the
// first threads that look), 2 s at most if a maker never finishes.
constexpr int kGrowWaitRounds = 200;
constexpr long kGrowWaitRoundNs = 10'000'000;

// Raw system calls throughout: the libc wrappers may be interposed by the OS-runtime tracer.
//
// System V shared memory rather than a memfd: a memfd must be grown with ftruncate, which
// RLIMIT_FSIZE (`ulimit -f`, set by some batch systems) refuses beyond its limit, and prof would
// then trace nothing. The launcher marks the segment for removal once it has attached it, not
// this process: a process that dies before the launcher attached its segment would otherwise take
// the segment, and its records, with it.
// Sets *error to the errno of a System V call that failed, or to -1 when the launcher was not told.
// `index` 0 is announced on the socket, later ones published in the first segment.
void* AttachNewSegment(uint32_t index, int* error) {
  const size_t bytes = protocol::RingSegmentBytes(protocol::kRingsPerSegment);
  const long id = syscall(SYS_shmget, IPC_PRIVATE, bytes, IPC_CREAT | IPC_EXCL | 0600);
  if (id < 0) {
    *error = errno;
    return nullptr;
  }
  const long attached = syscall(SYS_shmat, id, nullptr, 0);
  if (attached < 0 && attached > -4096) {
    *error = errno;
    syscall(SYS_shmctl, id, IPC_RMID, nullptr);
    return nullptr;
  }
  void* segment = reinterpret_cast<void*>(attached);
  // No huge pages: where they are on for shared memory, a ring's first record would make 2 MiB
  // resident. Advice only: a failure changes nothing.
  syscall(SYS_madvise, segment, bytes, MADV_NOHUGEPAGE);
  // Fresh pages read as zero: every ring starts free and empty. Only the header is written here;
  // the rings' pages become memory when their threads write them.
  auto* header = new (segment) RingSegmentHeader{};
  header->magic = protocol::kRingSegmentMagic;
  header->version = protocol::kRingSegmentVersion;
  header->ring_count = protocol::kRingsPerSegment;
  if (index > 0) {
    auto* first = static_cast<RingSegmentHeader*>(segments[0].load(std::memory_order_acquire));
    // Published, then the launcher's flag read (both sequentially consistent, as the launcher
    // sets the flag and then reads the ids): either the launcher sees the segment, or this
    // process sees that it must remove it.
    first->later_segment_ids[index - 1].store(static_cast<int32_t>(id) + 1);
    if (first->launcher_gone.load() != 0) syscall(SYS_shmctl, id, IPC_RMID, nullptr);
    return segment;
  }
  if (!g_announce(static_cast<int>(id), protocol::kRingsPerSegment)) {
    *error = -1;
    syscall(SYS_shmctl, id, IPC_RMID, nullptr);  // no launcher will
    syscall(SYS_shmdt, segment);
    return nullptr;
  }
  return segment;
}

// Claims a free ring of `segment` for `tid`; nullptr when all are taken.
ThreadRing* ClaimIn(void* segment, uint32_t tid) {
  for (uint32_t r = 0; r < protocol::kRingsPerSegment; ++r) {
    ThreadRing* ring = protocol::RingInSegment(segment, r);
    ThreadRing::State expected = ThreadRing::State::kFree;
    // Claimed first, owned once the owner fields are written: readers of an owned ring's
    // owner_tid (thread naming) never see them half written.
    if (ring->state.compare_exchange_strong(expected, ThreadRing::State::kClaimed,
                                            std::memory_order_acquire)) {
      ring->owner_tid = tid;
      ring->owner_thread = pthread_self();
      // The previous owner's overflow episode is over: its ring was drained.
      ring->dropping = false;
      ring->state.store(ThreadRing::State::kOwned, std::memory_order_release);
      return ring;
    }
  }
  return nullptr;
}

// Adds a segment after the last one unless another thread is doing so; true when the caller
// should look for a free ring again.
bool Grow(uint32_t segment_count) {
  int idle = 0;
  if (!g_growing.compare_exchange_strong(idle, 1, std::memory_order_acquire)) {
    const timespec round{0, kGrowWaitRoundNs};
    syscall(SYS_futex, reinterpret_cast<int*>(&g_growing), FUTEX_WAIT_PRIVATE, 1, &round, nullptr,
            0);
    return true;
  }
  bool grown = false;
  if (segments[segment_count].load(std::memory_order_acquire) != nullptr) {
    grown = true;  // another thread added it meanwhile
  } else if (int error = 0; void* segment = AttachNewSegment(segment_count, &error)) {
    segments[segment_count].store(segment, std::memory_order_release);
    grown = true;
  }
  g_growing.store(0, std::memory_order_release);
  syscall(SYS_futex, reinterpret_cast<int*>(&g_growing), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
  return grown;
}

}  // namespace

int StartRingPool(SegmentAnnouncer announce) {
  g_announce = announce;
  int error = 0;
  void* segment = AttachNewSegment(0, &error);
  if (segment == nullptr) return error;
  segments[0].store(segment, std::memory_order_release);
  return 0;
}

void MarkRingPoolExiting() {
  if (void* first = segments[0].load(std::memory_order_acquire)) {
    static_cast<RingSegmentHeader*>(first)->exiting.store(1, std::memory_order_release);
  }
}

ThreadRing* AcquireRing(uint32_t tid) {
  for (int attempt = 0; attempt < kGrowWaitRounds; ++attempt) {
    uint32_t count = 0;
    for (; count < kMaxSegments; ++count) {
      void* segment = segments[count].load(std::memory_order_acquire);
      if (segment == nullptr) break;
      if (ThreadRing* ring = ClaimIn(segment, tid)) return ring;
    }
    if (count == 0 || count == kMaxSegments || !Grow(count)) break;
  }
  CountDroppedWithoutRing();
  return nullptr;
}

void CountDroppedWithoutRing() {
  if (void* first = segments[0].load(std::memory_order_acquire)) {
    static_cast<RingSegmentHeader*>(first)->dropped_without_ring.fetch_add(
        1, std::memory_order_relaxed);
  }
}

void ForgetInheritedRings() {
  const size_t bytes = protocol::RingSegmentBytes(protocol::kRingsPerSegment);
  for (uint32_t s = 0; s < kMaxSegments; ++s) {
    void* segment = segments[s].exchange(nullptr, std::memory_order_acq_rel);
    // Replacing the mapping detaches the segment; the private pages are never touched unless a
    // stale write lands there, and reserve no memory.
    if (segment != nullptr) {
      syscall(SYS_mmap, segment, bytes, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    }
  }
  g_growing.store(0, std::memory_order_relaxed);
}

}  // namespace prof::injection
