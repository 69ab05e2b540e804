// The launcher's view of one traced process's thread rings (injection/protocol/thread_ring.h):
// the shared-memory segment the process announced over its socket and the later ones it published
// in that segment's header, attached here too, drained into the process's record stream.
//
// Contract:
// - Drain() appends whole records only, so its output can go between any two records of the
//   stream; with them, a DroppedRecords record for drops counted since the last drain. Once the
//   process is gone (Ended()), after every published record: the push/pop ranges its threads
//   still had open (NvtxRangeEnding says whether it exited or died), then a TornRecords record
//   for records its death cut.
// - Nothing in the shared memory is trusted: segments are checked (owner, size, header) when
//   they are attached, and a program that scribbles over its rings costs only its own records
//   (the stream's framing check then ends the stream).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "injection/protocol/cpu_counter.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/thread_ring.h"

namespace prof::collector {

class ProcessRings {
 public:
  ProcessRings() = default;
  ~ProcessRings();
  ProcessRings(const ProcessRings&) = delete;
  ProcessRings& operator=(const ProcessRings&) = delete;

  // Attaches the System V shared memory segment `segment_id`, announced with `ring_count` rings
  // by process `pid`: its first. False with `*error` set when it is not such a segment. The later
  // ones are attached by Drain() as the process publishes them.
  bool AddSegment(int segment_id, uint32_t ring_count, uint32_t pid, std::string* error);

  // No thread of the process can write any more: it exited normally (`died` false) or died at
  // about `end` (both clocks: a range in ticks ends in ticks), the end its open ranges get. A
  // record still being written is torn from now on.
  void Ended(bool died, protocol::CounterSample end);

  // Copies published records (and the records above) into `out`, at most `capacity` bytes,
  // which must be at least kMinDrainCapacity. Returns the byte count; 0 when nothing is left.
  // Attaches the segments the process published since; a published segment that is not the
  // process's own ends the adopting and is told as a failed kRingSegment record (its threads'
  // records cannot be read).
  size_t Drain(char* out, size_t capacity);

  // Whether a process other than the launcher still has one of these segments attached: false
  // once the process exited (or exec'd), and any child that shared its rings too, so that its
  // rings are final. For the stream whose socket closed while its process may live on (the
  // program closed the descriptor).
  bool AttachedElsewhere() const;
  // Whether the process said in its first segment that it runs exit() (so its end is no death).
  bool Exiting() const;

  bool empty() const { return segments_.empty(); }

  // Removes the ring segments that processes `pids` made and nobody attached: a process that died
  // before it announced its segment, or whose announcement the launcher never read. The launcher
  // removes a segment once it attached it, so these would otherwise stay until reboot. Recognised
  // by creator, owner, size (prof's exactly) and no attachment.
  static void RemoveUnattachedSegments(const std::vector<uint32_t>& pids);

  // The largest record or a ring's open ranges, and a loss record.
  static constexpr size_t kMinDrainCapacity = (size_t{64} << 10) + 64;

 private:
  struct Segment {
    void* base = nullptr;
    int id = -1;
    uint32_t ring_count = 0;
    std::vector<uint64_t> dropped_seen;   // per ring
    std::vector<uint64_t> too_deep_seen;  // per ring
  };

  // Attaches the later segments published in the first one; appends the refusal to `out`.
  size_t AdoptPublishedSegments(char* out);
  // Appends a loss record for `count` records (no-op for 0).
  static size_t AppendLoss(char* out, protocol::RecordKind kind, uint32_t tid, uint64_t count);
  // The ring at `index` across all segments.
  protocol::ThreadRing* RingAt(size_t index, Segment** segment, size_t* index_in_segment);
  // Appends `ring`'s open ranges with `ending` and `end` (in the time base of each range).
  static size_t AppendOpenRanges(const protocol::ThreadRing& ring, char* out,
                                 protocol::NvtxRangeEnding ending, protocol::CounterSample end);

  std::vector<Segment> segments_;
  // Where the next Drain() starts, so that one busy ring does not starve the others.
  size_t next_ring_ = 0;
  uint32_t pid_ = 0;               // the process's, from its first segment
  bool adopting_refused_ = false;  // a published segment was not the process's: none after it
  uint64_t dropped_without_ring_seen_ = 0;
  bool ended_ = false;
  bool died_ = false;
  protocol::CounterSample end_;
  size_t open_ranges_taken_ = 0;  // rings whose open ranges are in the stream
  bool torn_reported_ = false;
};

}  // namespace prof::collector
