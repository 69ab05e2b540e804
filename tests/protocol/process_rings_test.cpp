// Both halves of the shared-memory transport in one process: the injection's ring pool makes and
// announces real System V segments, the launcher's ProcessRings attaches and drains them.
#include "collector/process_rings.h"

#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "injection/core/ring_pool.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/thread_ring.h"

namespace {

using namespace prof::protocol;
using prof::collector::ProcessRings;

std::vector<int> g_announced;  // the ids of the segments the pool announced

bool KeepAnnounced(int segment_id, uint32_t ring_count) {
  if (ring_count != kRingsPerSegment) return false;
  g_announced.push_back(segment_id);
  return true;
}

const uint32_t kPid = static_cast<uint32_t>(getpid());

bool Append(ThreadRing* ring, uint64_t number) {
  OsrtCallRecord record{};
  record.header = {RecordKind::kOsrtCall, sizeof(record), 1, number};
  return ring->TryAppend(&record, sizeof(record), nullptr, 0);
}

struct Drained {
  std::vector<uint64_t> numbers;  // timestamps of the OS-runtime records, in order
  uint64_t dropped = 0;
  uint64_t torn = 0;
  size_t loss_records = 0;
  std::vector<NvtxEventRecord> ranges;  // push/pop ranges, text not kept
};

Drained DrainAll(ProcessRings* rings) {
  Drained drained;
  std::vector<char> out(256 * 1024);
  while (size_t size = rings->Drain(out.data(), out.size())) {
    for (size_t offset = 0; offset < size;) {
      RecordHeader header;
      std::memcpy(&header, out.data() + offset, sizeof(header));
      REQUIRE(header.size >= sizeof(header));
      if (header.kind == RecordKind::kOsrtCall) drained.numbers.push_back(header.timestamp_ns);
      if (header.kind == RecordKind::kNvtxPushPopRange ||
          header.kind == RecordKind::kNvtxPushPopRangeTicks) {
        NvtxEventRecord range;
        std::memcpy(&range, out.data() + offset, sizeof(range));
        drained.ranges.push_back(range);
      }
      if (header.kind == RecordKind::kDroppedRecords || header.kind == RecordKind::kTornRecords) {
        uint64_t count;
        std::memcpy(&count, out.data() + offset + sizeof(header), sizeof(count));
        (header.kind == RecordKind::kDroppedRecords ? drained.dropped : drained.torn) += count;
        ++drained.loss_records;
      }
      offset += header.size;
    }
  }
  return drained;
}

// Starts a fresh pool (the previous test's forgotten) and maps its first segment launcher-side.
void StartPool(ProcessRings* rings) {
  prof::injection::ForgetInheritedRings();
  g_announced.clear();
  REQUIRE(prof::injection::StartRingPool(KeepAnnounced) == 0);
  REQUIRE(g_announced.size() == 1);
  std::string error;
  REQUIRE(rings->AddSegment(g_announced[0], kRingsPerSegment, kPid, &error));
  CHECK(error.empty());
}

}  // namespace

TEST_CASE("records in the program's rings reach the launcher whole, with the drops counted",
          "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* first = prof::injection::AcquireRing(101);
  ThreadRing* second = prof::injection::AcquireRing(102);
  REQUIRE(first != nullptr);
  REQUIRE(second != nullptr);
  REQUIRE(first != second);
  for (uint64_t i = 0; i < 1000; ++i) REQUIRE(Append(first, i));
  for (uint64_t i = 1000; i < 1500; ++i) REQUIRE(Append(second, i));
  first->dropped.fetch_add(7);
  const Drained drained = DrainAll(&rings);
  REQUIRE(drained.numbers.size() == 1500);
  // Each ring's records in order.
  std::vector<uint64_t> of_first, of_second;
  for (uint64_t number : drained.numbers) (number < 1000 ? of_first : of_second).push_back(number);
  CHECK(of_first.front() == 0);
  CHECK(of_first.back() == 999);
  CHECK(std::is_sorted(of_first.begin(), of_first.end()));
  CHECK(std::is_sorted(of_second.begin(), of_second.end()));
  CHECK(drained.dropped == 7);
  CHECK(drained.torn == 0);
  // Counted once: a second drain reports nothing new.
  const Drained again = DrainAll(&rings);
  CHECK(again.numbers.empty());
  CHECK(again.loss_records == 0);
}

TEST_CASE("a retired ring is drained, freed by the launcher and reused", "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* ring = prof::injection::AcquireRing(201);
  REQUIRE(ring != nullptr);
  for (uint64_t i = 0; i < 10; ++i) REQUIRE(Append(ring, i));
  ring->state.store(ThreadRing::State::kRetired);  // its thread exited
  CHECK(DrainAll(&rings).numbers.size() == 10);
  CHECK(ring->state.load() == ThreadRing::State::kFree);
  CHECK(prof::injection::AcquireRing(202) == ring);
  CHECK(ring->owner_tid == 202);
}

TEST_CASE("more threads than a segment's rings get segments published in the first, no socket",
          "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  // 63 more segments, all made with nothing announced: the launcher finds them as it drains.
  const uint32_t threads = kMaxRingSegments * kRingsPerSegment;
  std::vector<ThreadRing*> taken;
  for (uint32_t tid = 1; tid <= threads; ++tid) {
    taken.push_back(prof::injection::AcquireRing(tid));
    REQUIRE(taken.back() != nullptr);
  }
  CHECK(g_announced.size() == 1);
  for (uint64_t i = 0; i < taken.size(); ++i) REQUIRE(Append(taken[i], i));
  const Drained drained = DrainAll(&rings);
  CHECK(drained.numbers.size() == threads);
  CHECK(drained.dropped == 0);
  // Beyond the last segment a thread gets no ring, and its record is counted as such.
  CHECK(prof::injection::AcquireRing(threads + 1) == nullptr);
  std::vector<char> out(256 * 1024);
  const size_t size = rings.Drain(out.data(), out.size());
  REQUIRE(size == sizeof(RecordsWithoutRingRecord));
  RecordsWithoutRingRecord lost;
  std::memcpy(&lost, out.data(), sizeof(lost));
  CHECK(lost.header.kind == RecordKind::kRecordsWithoutRing);
  CHECK(lost.dropped == 1);
}

TEST_CASE("once the process is gone, a record cut while written is counted as torn", "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* ring = prof::injection::AcquireRing(301);
  REQUIRE(ring != nullptr);
  for (uint64_t i = 0; i < 3; ++i) REQUIRE(Append(ring, i));
  // What a producer killed inside Emit leaves: the mark set, the record unpublished.
  ring->BeginWrite();
  // While the process may still finish the record, nothing is torn.
  Drained live = DrainAll(&rings);
  CHECK(live.numbers.size() == 3);
  CHECK(live.torn == 0);
  rings.Ended(true, {12, 12345});
  const Drained gone = DrainAll(&rings);
  CHECK(gone.torn == 1);
  CHECK(gone.loss_records == 1);
  // Reported once.
  CHECK(DrainAll(&rings).loss_records == 0);
}

// A range as OpenPushPopRange keeps it: `level` set, its text after the record.
bool Push(ThreadRing* ring, uint64_t domain_id, uint64_t level, uint64_t start,
          const std::string& text, RecordKind kind = RecordKind::kNvtxPushPopRange) {
  return ring->OpenRange({kind, 1, start, domain_id, level}, {}, text.data(), text.size());
}

TEST_CASE("ranges open when the process ends come out whole, ended as it ended", "[rings]") {
  const bool died = GENERATE(false, true);
  // A range stamped in counter ticks ends in ticks: the launcher converts both times later.
  const RecordKind kind =
      GENERATE(RecordKind::kNvtxPushPopRange, RecordKind::kNvtxPushPopRangeTicks);
  const bool in_ticks = kind == RecordKind::kNvtxPushPopRangeTicks;
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* ring = prof::injection::AcquireRing(401);
  REQUIRE(ring != nullptr);
  REQUIRE(Push(ring, 0, 0, 100, "outer", kind));
  REQUIRE(Push(ring, 0, 1, 200, "inner that ended", kind));
  // The inner one is popped as ClosePushPopRange pops it: taken, then appended ended.
  const ThreadRing::ClosedRange closed = ring->CloseRange(0, 1);
  REQUIRE(closed.size == AlignedRecordSize(sizeof(NvtxEventRecord) + 16));
  REQUIRE(ring->AppendClosedRange(closed, 300));
  ring->EndClose(closed);
  // The popped one is drained ended; while the process lives, its open range stays its own.
  const Drained popped = DrainAll(&rings);
  REQUIRE(popped.ranges.size() == 1);
  CHECK(popped.ranges[0].header.timestamp_ns == 200);
  CHECK(popped.ranges[0].end_ns == 300);
  CHECK(popped.ranges[0].ending == NvtxRangeEnding::kPopped);
  rings.Ended(died, {777, 999});
  const Drained ended = DrainAll(&rings);
  REQUIRE(ended.ranges.size() == 1);
  CHECK(ended.ranges[0].header.kind == kind);
  CHECK(ended.ranges[0].header.timestamp_ns == 100);
  CHECK(ended.ranges[0].ending ==
        (died ? NvtxRangeEnding::kOpenAtDeath : NvtxRangeEnding::kOpenAtExit));
  CHECK(ended.ranges[0].end_ns == (died ? (in_ticks ? 777u : 999u) : 0u));
  CHECK(ended.torn == 0);
  CHECK(DrainAll(&rings).ranges.empty());
}

TEST_CASE("a thread that exits with ranges open leaves them unended, not to the next owner",
          "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* ring = prof::injection::AcquireRing(501);
  REQUIRE(Push(ring, 3, 0, 100, "left open"));
  ring->state.store(ThreadRing::State::kRetired);
  const Drained drained = DrainAll(&rings);
  REQUIRE(drained.ranges.size() == 1);
  CHECK(drained.ranges[0].ending == NvtxRangeEnding::kOpenAtExit);
  CHECK(drained.ranges[0].domain_id == 3);
  REQUIRE(prof::injection::AcquireRing(502) == ring);
  rings.Ended(true, {9, 999});
  CHECK(DrainAll(&rings).ranges.empty());
}

TEST_CASE("a process's segments count as attached until it lets them go", "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  CHECK(rings.AttachedElsewhere());
  CHECK_FALSE(rings.Exiting());
  prof::injection::MarkRingPoolExiting();
  CHECK(rings.Exiting());
  // What a fork child does with its parent's segments, and an exit or exec with its own.
  prof::injection::ForgetInheritedRings();
  CHECK_FALSE(rings.AttachedElsewhere());
}

TEST_CASE("rings take turns at filling the launcher's buffer", "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* busy = prof::injection::AcquireRing(601);
  ThreadRing* other = prof::injection::AcquireRing(602);
  // Each holds more than one drain's buffer: 1 MiB of 40-byte records.
  for (uint64_t i = 0; i < 26000; ++i) {
    REQUIRE(Append(busy, i));
    REQUIRE(Append(other, 100000 + i));
  }
  std::vector<char> out(256 * 1024);
  const auto first_of = [&](size_t size) {
    RecordHeader header;
    REQUIRE(size >= sizeof(header));
    std::memcpy(&header, out.data(), sizeof(header));
    return header.timestamp_ns;
  };
  const uint64_t first = first_of(rings.Drain(out.data(), out.size()));
  const uint64_t second = first_of(rings.Drain(out.data(), out.size()));
  CHECK((first < 100000) != (second < 100000));
}

TEST_CASE("a ring whose positions the program overwrote yields nothing, and a final drain ends",
          "[rings]") {
  ProcessRings rings;
  StartPool(&rings);
  ThreadRing* ring = prof::injection::AcquireRing(701);
  for (uint64_t i = 0; i < 3; ++i) REQUIRE(Append(ring, i));
  // `head` (the first word of the ring's second cache line) far past anything written.
  auto* head = reinterpret_cast<std::atomic<uint64_t>*>(reinterpret_cast<char*>(ring) + 64);
  head->store(head->load() + (uint64_t{1} << 40));
  rings.Ended(true, {9, 999});
  const Drained drained = DrainAll(&rings);
  CHECK(drained.numbers.empty());
}

TEST_CASE("segments that are not the process's rings are refused", "[rings]") {
  ProcessRings rings;
  std::string error;
  const size_t bytes = RingSegmentBytes(1);
  const int id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
  REQUIRE(id >= 0);
  void* base = shmat(id, nullptr, 0);
  REQUIRE(base != reinterpret_cast<void*>(-1));
  shmctl(id, IPC_RMID, nullptr);
  SECTION("made by another process") {
    CHECK_FALSE(rings.AddSegment(id, 1, kPid + 1, &error));
    CHECK(error == "a ring segment that is not the process's own");
  }
  SECTION("smaller than its rings") {
    CHECK_FALSE(rings.AddSegment(id, 2, kPid, &error));
    CHECK(error == "a ring segment that is not the process's own");
  }
  SECTION("without the header") {
    CHECK_FALSE(rings.AddSegment(id, 1, kPid, &error));
    CHECK(error == "a ring segment of another prof version");
  }
  CHECK(rings.empty());
  shmdt(base);
}
