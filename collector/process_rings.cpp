#include "collector/process_rings.h"

#include <sys/shm.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/thread_ring.h"

namespace prof::collector {
namespace {

using protocol::RecordKind;
using protocol::ThreadRing;

// A bound on what a process may announce: 1,024 rings per segment is 64 times what prof makes.
constexpr uint32_t kMaxRingsPerSegment = 1024;

}  // namespace

ProcessRings::~ProcessRings() {
  if (!segments_.empty()) {
    // The process may outlive this reader (--wait=primary, prof stopped): segments it publishes
    // from now on it removes itself; the ones published before are removed here, unattached.
    auto* first = static_cast<protocol::RingSegmentHeader*>(segments_.front().base);
    first->launcher_gone.store(1);
    for (size_t index = segments_.size(); index < protocol::kMaxRingSegments; ++index) {
      const int32_t published = first->later_segment_ids[index - 1].load();
      if (published <= 0) break;
      shmid_ds status{};
      if (shmctl(published - 1, IPC_STAT, &status) == 0 &&
          status.shm_cpid == static_cast<pid_t>(pid_)) {
        shmctl(published - 1, IPC_RMID, nullptr);
      }
    }
  }
  for (const Segment& segment : segments_) shmdt(segment.base);
}

bool ProcessRings::AddSegment(int segment_id, uint32_t ring_count, uint32_t pid,
                              std::string* error) {
  // The announcing process made it (and has it attached), for its rings: anything else of this
  // user's is not attached, let alone written to.
  shmid_ds status{};
  if (ring_count == 0 || ring_count > kMaxRingsPerSegment ||
      shmctl(segment_id, IPC_STAT, &status) != 0 || status.shm_cpid != static_cast<pid_t>(pid) ||
      status.shm_segsz < protocol::RingSegmentBytes(ring_count)) {
    *error = "a ring segment that is not the process's own";
    return false;
  }
  void* base = shmat(segment_id, nullptr, 0);
  if (base == reinterpret_cast<void*>(-1)) {
    *error = std::string("cannot attach a ring segment: ") + std::strerror(errno);
    return false;
  }
  const auto* header = static_cast<const protocol::RingSegmentHeader*>(base);
  if (header->magic != protocol::kRingSegmentMagic ||
      header->version != protocol::kRingSegmentVersion || header->ring_count != ring_count) {
    shmdt(base);  // not removed: it may be any segment of the program's own
    *error = "a ring segment of another prof version";
    return false;
  }
  // Attached: the segment now lives until its last detach, ours included, and then goes. (The
  // process leaves this to the launcher, so that its records outlive it even if it dies before
  // the launcher got here.)
  shmctl(segment_id, IPC_RMID, nullptr);
  pid_ = pid;
  Segment segment;
  segment.base = base;
  segment.id = segment_id;
  segment.ring_count = ring_count;
  segment.dropped_seen.assign(ring_count, 0);
  segment.too_deep_seen.assign(ring_count, 0);
  segments_.push_back(std::move(segment));
  return true;
}

size_t ProcessRings::AppendLoss(char* out, RecordKind kind, uint32_t tid, uint64_t count) {
  if (count == 0) return 0;
  // DroppedRecordsRecord and TornRecordsRecord share this layout: a header and a count.
  static_assert(sizeof(protocol::DroppedRecordsRecord) == sizeof(protocol::TornRecordsRecord));
  protocol::DroppedRecordsRecord record{};
  record.header = {kind, sizeof(record), tid, protocol::MonotonicNowNs()};
  record.dropped = count;
  std::memcpy(out, &record, sizeof(record));
  return sizeof(record);
}

void ProcessRings::Ended(bool died, protocol::CounterSample end) {
  ended_ = true;
  died_ = died;
  end_ = end;
}

ThreadRing* ProcessRings::RingAt(size_t index, Segment** segment, size_t* index_in_segment) {
  for (Segment& candidate : segments_) {
    if (index < candidate.ring_count) {
      *segment = &candidate;
      *index_in_segment = index;
      return protocol::RingInSegment(candidate.base, static_cast<uint32_t>(index));
    }
    index -= candidate.ring_count;
  }
  return nullptr;
}

size_t ProcessRings::AppendOpenRanges(const ThreadRing& ring, char* out,
                                      protocol::NvtxRangeEnding ending,
                                      protocol::CounterSample end) {
  const size_t copied = ring.CopyOpenRanges(out, ThreadRing::kOpenRangeBytes);
  // Whole push/pop range records as the thread left them: checked, then given their ending.
  size_t offset = 0;
  while (offset + sizeof(protocol::NvtxEventRecord) <= copied) {
    protocol::NvtxEventRecord range;
    std::memcpy(&range, out + offset, sizeof(range));
    const bool in_ticks = range.header.kind == RecordKind::kNvtxPushPopRangeTicks;
    if ((range.header.kind != RecordKind::kNvtxPushPopRange && !in_ticks) ||
        range.header.size < sizeof(range) || range.header.size % protocol::kRecordAlignment != 0 ||
        range.header.size > copied - offset) {
      break;  // not what the thread wrote: the rest is not used
    }
    range.ending = ending;
    range.end_ns =
        ending == protocol::NvtxRangeEnding::kOpenAtDeath ? (in_ticks ? end.ticks : end.ns) : 0;
    std::memcpy(out + offset, &range, sizeof(range));
    offset += range.header.size;
  }
  return offset;
}

size_t ProcessRings::AdoptPublishedSegments(char* out) {
  if (segments_.empty() || adopting_refused_) return 0;
  const auto* first = static_cast<const protocol::RingSegmentHeader*>(segments_.front().base);
  while (segments_.size() < protocol::kMaxRingSegments) {
    const int32_t published =
        first->later_segment_ids[segments_.size() - 1].load(std::memory_order_acquire);
    if (published <= 0) return 0;
    std::string refusal;
    if (!AddSegment(published - 1, protocol::kRingsPerSegment, pid_, &refusal)) {
      adopting_refused_ = true;
      protocol::RingSegmentRecord record{};
      record.header = {RecordKind::kRingSegment, sizeof(record), 0, protocol::MonotonicNowNs()};
      record.segment_id = -EPERM;
      record.ring_count = protocol::kRingsPerSegment;
      std::memcpy(out, &record, sizeof(record));
      return sizeof(record);
    }
  }
  return 0;
}

size_t ProcessRings::Drain(char* out, size_t capacity) {
  constexpr size_t kLossBytes = sizeof(protocol::DroppedRecordsRecord);
  size_t used = AdoptPublishedSegments(out);
  if (!segments_.empty()) {
    auto* first = static_cast<protocol::RingSegmentHeader*>(segments_.front().base);
    const uint64_t dropped = first->dropped_without_ring.load(std::memory_order_relaxed);
    used += AppendLoss(out + used, RecordKind::kRecordsWithoutRing, 0,
                       dropped - dropped_without_ring_seen_);
    dropped_without_ring_seen_ = dropped;
  }
  size_t total_rings = 0;
  for (const Segment& segment : segments_) total_rings += segment.ring_count;
  uint64_t torn = 0;
  // One pass over every ring, starting where the last one stopped.
  for (size_t visited = 0; visited < total_rings; ++visited) {
    if (capacity - used < kMinDrainCapacity) break;
    const size_t index = (next_ring_ + visited) % total_rings;
    Segment* segment = nullptr;
    size_t ring_index = 0;
    ThreadRing* ring = RingAt(index, &segment, &ring_index);
    const ThreadRing::State state = ring->state.load(std::memory_order_acquire);
    if (state != ThreadRing::State::kOwned && state != ThreadRing::State::kRetired) continue;
    const uint64_t dropped = ring->dropped.load(std::memory_order_relaxed);
    used += AppendLoss(out + used, RecordKind::kDroppedRecords, ring->owner_tid,
                       dropped - segment->dropped_seen[ring_index]);
    segment->dropped_seen[ring_index] = dropped;
    const uint64_t too_deep = ring->too_deep.load(std::memory_order_relaxed);
    used += AppendLoss(out + used, RecordKind::kNvtxRangesTooDeep, ring->owner_tid,
                       too_deep - segment->too_deep_seen[ring_index]);
    segment->too_deep_seen[ring_index] = too_deep;
    // Leave room for the torn record below.
    const size_t drained = ring->Drain(out + used, capacity - used - kLossBytes);
    used += drained;
    if (drained == 0 && ended_ && ring->WriteCutShort()) ++torn;
    if (drained == 0 && state == ThreadRing::State::kRetired) {
      // Its thread is gone and so are its records: the next new thread of the process takes it,
      // once the ranges the thread never popped are written (never ended, as at an exit).
      used += AppendOpenRanges(*ring, out + used, protocol::NvtxRangeEnding::kOpenAtExit, {});
      ring->ClearOpenRanges();
      ThreadRing::State retired = ThreadRing::State::kRetired;
      ring->state.compare_exchange_strong(retired, ThreadRing::State::kFree,
                                          std::memory_order_release);
    }
    // The next drain starts at the next ring: rings take turns at filling a chunk, so a ring
    // that always has records cannot starve the others.
    if (drained > 0) next_ring_ = (index + 1) % total_rings;
  }
  if (!ended_ || used > 0) return used;
  // The process is gone and a whole pass found nothing more: every record it published is in
  // the stream. Now the ranges its threads left open, ring by ring, then the torn count.
  for (; open_ranges_taken_ < total_rings; ++open_ranges_taken_) {
    if (capacity - used < kMinDrainCapacity) return used;
    Segment* segment = nullptr;
    size_t ring_index = 0;
    const ThreadRing* ring = RingAt(open_ranges_taken_, &segment, &ring_index);
    if (ring->state.load(std::memory_order_acquire) == ThreadRing::State::kOwned) {
      used += AppendOpenRanges(
          *ring, out + used,
          died_ ? protocol::NvtxRangeEnding::kOpenAtDeath : protocol::NvtxRangeEnding::kOpenAtExit,
          end_);
    }
  }
  if (!torn_reported_) {
    torn_reported_ = true;
    used += AppendLoss(out + used, RecordKind::kTornRecords, 0, torn);
  }
  return used;
}

void ProcessRings::RemoveUnattachedSegments(const std::vector<uint32_t>& pids) {
  std::ifstream table("/proc/sysvipc/shm");
  std::string line;
  std::getline(table, line);  // the column names
  const uint64_t ring_segment_bytes = protocol::RingSegmentBytes(protocol::kRingsPerSegment);
  while (std::getline(table, line)) {
    // key shmid perms size cpid lpid nattch uid gid cuid ...
    std::istringstream fields(line);
    long long key = -1, id = -1, perms = 0, size = 0, cpid = 0, lpid = 0, nattch = -1, uid = -1;
    long long gid = -1, cuid = -1;
    if (!(fields >> key >> id >> perms >> size >> cpid >> lpid >> nattch >> uid >> gid >> cuid)) {
      continue;
    }
    if (key != 0 || nattch != 0 || static_cast<uint64_t>(size) != ring_segment_bytes ||
        cuid != static_cast<long long>(geteuid()) ||
        std::find(pids.begin(), pids.end(), static_cast<uint32_t>(cpid)) == pids.end()) {
      continue;
    }
    shmctl(static_cast<int>(id), IPC_RMID, nullptr);
  }
}

bool ProcessRings::AttachedElsewhere() const {
  for (const Segment& segment : segments_) {
    shmid_ds status{};
    // The launcher's own attachment is one.
    if (shmctl(segment.id, IPC_STAT, &status) == 0 && status.shm_nattch > 1) return true;
  }
  return false;
}

bool ProcessRings::Exiting() const {
  if (segments_.empty()) return false;
  const auto* first = static_cast<const protocol::RingSegmentHeader*>(segments_.front().base);
  return first->exiting.load(std::memory_order_acquire) != 0;
}

}  // namespace prof::collector
