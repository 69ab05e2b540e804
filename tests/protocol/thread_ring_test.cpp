#include "injection/protocol/thread_ring.h"

#include <sys/mman.h>  // mmap, mincore
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "injection/protocol/record_format.h"

using namespace prof::protocol;
using prof::protocol::ThreadRing;

namespace {

// A ring in fresh anonymous memory, as a segment's ring is: pages become resident only as they
// are written.
ThreadRing* MapRing() {
  void* memory =
      mmap(nullptr, sizeof(ThreadRing), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? nullptr : new (memory) ThreadRing;
}

// A 40-byte record whose timestamp numbers it, followed by `text`.
bool Append(ThreadRing* buffer, uint64_t number, const std::string& text = "") {
  OsrtCallRecord record{};
  record.header = {RecordKind::kOsrtCall,
                   static_cast<uint16_t>(AlignedRecordSize(sizeof(record) + text.size())), 1,
                   number};
  return buffer->TryAppend(&record, sizeof(record), text.data(), text.size());
}

// Timestamps of the whole records in `bytes`.
std::vector<uint64_t> Numbers(const char* bytes, size_t size) {
  std::vector<uint64_t> numbers;
  for (size_t offset = 0; offset < size;) {
    RecordHeader header;
    std::memcpy(&header, bytes + offset, sizeof(header));
    numbers.push_back(header.timestamp_ns);
    offset += header.size;
  }
  return numbers;
}

}  // namespace

TEST_CASE("the ring refuses records once full and accepts them again after a drain", "[ring]") {
  auto buffer = std::make_unique<ThreadRing>();
  const size_t per_record = 40;
  const size_t fits = ThreadRing::kCapacity / per_record;
  for (size_t i = 0; i < fits; ++i) REQUIRE(Append(buffer.get(), i));
  CHECK_FALSE(Append(buffer.get(), fits));
  CHECK(buffer->UsedBytes() == fits * per_record);

  std::vector<char> out(ThreadRing::kCapacity);
  CHECK(buffer->Drain(out.data(), out.size()) == fits * per_record);
  CHECK(buffer->UsedBytes() == 0);
  CHECK(Append(buffer.get(), fits));
}

TEST_CASE("records that wrap around the ring's end drain intact and in order", "[ring]") {
  auto buffer = std::make_unique<ThreadRing>();
  std::vector<char> out(ThreadRing::kCapacity);
  // Fill the ring up to 32 bytes before its end and drain only the first record: the ring's start
  // then has 40 free bytes, too few to go on there with a 64-byte record (the early wrap) but
  // enough for the 32 bytes of it that wrap.
  const size_t filler = (ThreadRing::kCapacity - 32) / 40;
  static_assert((ThreadRing::kCapacity - 32) % 40 == 0);
  for (size_t i = 0; i < filler; ++i) REQUIRE(Append(buffer.get(), i));
  REQUIRE(buffer->Drain(out.data(), 40) == 40);
  const std::string text = "a name that wraps around";  // 40 + 24 = 64 bytes
  REQUIRE(Append(buffer.get(), 1000, text));
  CHECK_FALSE(Append(buffer.get(), 1001));  // 8 bytes left
  const size_t drained = buffer->Drain(out.data(), out.size());
  REQUIRE(drained == (filler - 1) * 40 + 64);
  const std::vector<uint64_t> numbers = Numbers(out.data(), drained);
  CHECK(numbers.size() == filler);
  CHECK(numbers[filler - 2] == filler - 1);
  CHECK(numbers.back() == 1000);
  CHECK(std::string(out.data() + drained - 64 + 40, text.size()) == text);
}

TEST_CASE("a full ring whose drainer has yet to pass a gap holds few records and no room",
          "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  std::vector<char> out(ThreadRing::kCapacity);
  // A steady thread: one 40-byte record behind, until it goes on at the next lap's start.
  uint64_t number = 0;
  REQUIRE(Append(ring.get(), number++));
  for (;;) {
    REQUIRE(Append(ring.get(), number++));
    if (ring->OccupiedBytes() > ring->UsedBytes()) break;  // it went past a gap
    REQUIRE(ring->Drain(out.data(), 40) == 40);
  }
  CHECK(ring->UsedBytes() == 80);
  // Then the drainer stalls, and the thread fills the ring.
  while (Append(ring.get(), number)) ++number;
  CHECK(ring->UsedBytes() < ThreadRing::kReuseBytes + 80);
  CHECK(ring->OccupiedBytes() > ThreadRing::kCapacity - 40);
  // Drained: the gap is passed, the records come out in order, and the room is back.
  std::vector<uint64_t> numbers;
  while (const size_t size = ring->Drain(out.data(), out.size())) {
    for (uint64_t got : Numbers(out.data(), size)) numbers.push_back(got);
  }
  REQUIRE(!numbers.empty());
  CHECK(numbers.back() == number - 1);
  CHECK(ring->OccupiedBytes() == 0);
}

TEST_CASE("a thread that emits steadily goes on at the ring's start past kReuseBytes", "[ring]") {
  ThreadRing* buffer = MapRing();
  REQUIRE(buffer != nullptr);
  std::vector<char> out(1 << 16);
  // The ring is never empty: every drain leaves the newest record behind, as a flusher does that
  // copies while the thread keeps emitting. 20 MiB of records in all.
  uint64_t number = 0;
  uint64_t expected = 0;
  size_t mismatches = 0;
  for (size_t round = 0; round < 20 * (size_t{1} << 20) / 4000; ++round) {
    for (int i = 0; i < 100; ++i) REQUIRE(Append(buffer, number++));
    const size_t drained = buffer->Drain(out.data(), round == 0 ? 3960 : 4000);
    for (uint64_t got : Numbers(out.data(), drained)) mismatches += got != expected++;
  }
  // The last record, after the gap markers: nothing but records comes out, in order.
  for (uint64_t got : Numbers(out.data(), buffer->Drain(out.data(), out.size()))) {
    mismatches += got != expected++;
  }
  CHECK(mismatches == 0);
  CHECK(expected == number);
  CHECK(buffer->UsedBytes() == 0);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((sizeof(ThreadRing) + page - 1) / page);
  REQUIRE(mincore(buffer, sizeof(ThreadRing), resident.data()) == 0);
  size_t resident_pages = 0;
  for (unsigned char flags : resident) resident_pages += flags & 1;
  // kReuseBytes and one round's records past it, and the header's page; without the early wrap
  // all 20 MiB (5,120 pages) would be resident.
  CHECK(resident_pages <= (ThreadRing::kReuseBytes + 8192) / page + 2);
  CHECK(resident_pages >= ThreadRing::kReuseBytes / page);
}

TEST_CASE("a skipped gap holds no records, and the drain that reaches it passes it", "[ring]") {
  ThreadRing* buffer = MapRing();
  REQUIRE(buffer != nullptr);
  // Records up to just past kReuseBytes, all drained but the last: the next record goes on at the
  // ring's start.
  const uint64_t before_gap = ThreadRing::kReuseBytes / 40 + 1;
  for (uint64_t number = 0; number < before_gap; ++number) REQUIRE(Append(buffer, number));
  std::vector<char> out(ThreadRing::kCapacity);
  REQUIRE(buffer->Drain(out.data(), (before_gap - 1) * 40) == (before_gap - 1) * 40);
  REQUIRE(Append(buffer, before_gap));
  CHECK(buffer->UsedBytes() == 80);  // the record before the gap and the one after it
  // A drain with room for one record takes the one before the gap and passes the gap.
  REQUIRE(buffer->Drain(out.data(), 40) == 40);
  CHECK(Numbers(out.data(), 40) == std::vector<uint64_t>{before_gap - 1});
  CHECK(buffer->UsedBytes() == 40);
  // So a burst now has the whole ring again.
  uint64_t number = before_gap + 1;
  while (Append(buffer, number)) ++number;
  CHECK(number - before_gap == (ThreadRing::kCapacity - 40) / 40 + 1);
  const size_t drained = buffer->Drain(out.data(), out.size());
  const std::vector<uint64_t> numbers = Numbers(out.data(), drained);
  CHECK(numbers.size() == number - before_gap);
  CHECK(numbers.front() == before_gap);
  CHECK(numbers.back() == number - 1);
}

TEST_CASE("a burst that outruns the drainer keeps the whole ring", "[ring]") {
  ThreadRing* buffer = MapRing();
  REQUIRE(buffer != nullptr);
  // 2 MiB of records, of which the drainer has taken only the first 100 KB: a backlog of 1.9 MB,
  // past kReuseBytes. Going on at the ring's start now would leave the burst 100 KB of room.
  const size_t burst = (size_t{2} << 20) / 40;
  uint64_t number = 0;
  while (number < burst) REQUIRE(Append(buffer, number++));
  std::vector<char> out(100000);
  REQUIRE(buffer->Drain(out.data(), out.size()) == 100000);
  while (Append(buffer, number)) ++number;
  // Full only when the whole ring is: all of it but what is left of one record's size.
  CHECK(buffer->UsedBytes() > ThreadRing::kCapacity - 40);
  CHECK(number == (ThreadRing::kCapacity + 100000) / 40);
}

TEST_CASE("a drain bounded by capacity stops at a record boundary", "[ring]") {
  auto buffer = std::make_unique<ThreadRing>();
  for (uint64_t i = 0; i < 10; ++i) REQUIRE(Append(buffer.get(), i));
  std::vector<char> out(100);
  CHECK(buffer->Drain(out.data(), out.size()) == 80);
  CHECK(Numbers(out.data(), 80) == std::vector<uint64_t>{0, 1});
  CHECK(buffer->UsedBytes() == 8 * 40);
}

TEST_CASE("a thread whose ring keeps emptying reuses the pages at its start", "[ring]") {
  // A new buffer, as a new thread gets one (its memory is never unmapped, as in the program).
  ThreadRing* buffer = MapRing();
  REQUIRE(buffer != nullptr);
  std::vector<char> out(1 << 16);
  // Twice the ring's size in total, 100 records (4,000 bytes) at a time, drained in between.
  uint64_t number = 0;
  for (size_t round = 0; round < 2 * ThreadRing::kCapacity / 4000; ++round) {
    for (int i = 0; i < 100; ++i) REQUIRE(Append(buffer, number++));
    REQUIRE(Numbers(out.data(), buffer->Drain(out.data(), out.size())).front() == number - 100);
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((sizeof(ThreadRing) + page - 1) / page);
  REQUIRE(mincore(buffer, sizeof(ThreadRing), resident.data()) == 0);
  size_t resident_pages = 0;
  for (unsigned char flags : resident) resident_pages += flags & 1;
  // The header's page and the first 4,000 bytes of the ring: 2 or 3 pages, not the whole ring.
  CHECK(resident_pages <= 3);
}

TEST_CASE("a producer and a drainer at once: every record arrives whole, in order", "[ring]") {
  // The drainer often finds the ring empty, so the producer rewinds it many times while the
  // drainer reads; records of varying sizes also wrap around the end.
  ThreadRing* buffer = MapRing();
  REQUIRE(buffer != nullptr);
  constexpr uint64_t kRecords = 300000;
  const auto text_of = [](uint64_t number) { return std::string(number % 23, 'a' + number % 26); };
  std::thread producer([&] {
    for (uint64_t number = 0; number < kRecords; ++number) {
      while (!Append(buffer, number, text_of(number))) std::this_thread::yield();
    }
  });
  // The drainer's view of the ring's use, read again and again while the producer rewinds.
  std::atomic<bool> done{false};
  size_t largest_used = 0;
  std::thread watcher([&] {
    while (!done.load()) largest_used = std::max(largest_used, buffer->UsedBytes());
  });
  std::vector<char> out(1 << 16);
  uint64_t expected = 0;
  size_t mismatches = 0;
  while (expected < kRecords) {
    const size_t drained = buffer->Drain(out.data(), out.size());
    for (size_t offset = 0; offset < drained;) {
      RecordHeader header;
      std::memcpy(&header, out.data() + offset, sizeof(header));
      const std::string text = text_of(expected);
      mismatches += header.timestamp_ns != expected ||
                    std::string(out.data() + offset + sizeof(OsrtCallRecord), text.size()) != text;
      ++expected;
      offset += header.size;
    }
  }
  producer.join();
  done.store(true);
  watcher.join();
  CHECK(mismatches == 0);
  CHECK(buffer->UsedBytes() == 0);
  CHECK(largest_used <= ThreadRing::kCapacity);
}

namespace {

bool Open(ThreadRing* ring, uint64_t domain_id, uint64_t level, const std::string& text,
          const NvtxRangeAttributes& attributes = {}) {
  return ring->OpenRange({RecordKind::kNvtxPushPopRange, 1, 0, domain_id, level}, attributes,
                         text.data(), text.size());
}

// The text of the range `Take` removed, or "" when none.
std::string Take(ThreadRing* ring, uint64_t domain_id, uint64_t level) {
  const ThreadRing::ClosedRange range = ring->CloseRange(domain_id, level);
  if (range.bytes == nullptr) return "";
  NvtxEventRecord record;
  std::memcpy(&record, range.bytes, sizeof(record));
  const std::string text(range.bytes + sizeof(record), record.text_length);
  ring->EndWrite();
  ring->EndClose(range);
  return text;
}

std::vector<std::string> OpenTexts(const ThreadRing& ring) {
  std::vector<char> out(ThreadRing::kOpenRangeBytes);
  const size_t size = ring.CopyOpenRanges(out.data(), out.size());
  std::vector<std::string> texts;
  for (size_t offset = 0; offset < size;) {
    NvtxEventRecord record;
    std::memcpy(&record, out.data() + offset, sizeof(record));
    texts.emplace_back(out.data() + offset + sizeof(record), record.text_length);
    offset += record.header.size;
  }
  return texts;
}

}  // namespace

TEST_CASE("open ranges nest per domain and end in any domain's order", "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  REQUIRE(Open(ring.get(), 0, 0, "a"));
  REQUIRE(Open(ring.get(), 1, 0, "b in domain 1"));
  REQUIRE(Open(ring.get(), 0, 1, "c"));
  CHECK(Take(ring.get(), 0, 1) == "c");
  // Below the other domain's range: taken from the middle, the rest kept in order.
  CHECK(Take(ring.get(), 0, 0) == "a");
  CHECK(OpenTexts(*ring) == std::vector<std::string>{"b in domain 1"});
  CHECK(Take(ring.get(), 0, 0).empty());  // its push was never kept
  CHECK(Take(ring.get(), 1, 0) == "b in domain 1");
  CHECK(OpenTexts(*ring).empty());
}

TEST_CASE("open ranges beyond their memory are refused, not written past it", "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  const std::string text(1000, 'x');
  const size_t per_range = AlignedRecordSize(sizeof(NvtxEventRecord) + text.size());
  uint64_t level = 0;
  while (Open(ring.get(), 0, level, text)) ++level;
  CHECK(level == ThreadRing::kOpenRangeBytes / per_range);
  CHECK(Take(ring.get(), 0, level - 1) == text);
  CHECK(Open(ring.get(), 0, level - 1, text));
}

TEST_CASE("a pop finds its range after others were taken from the middle or cleared", "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  REQUIRE(Open(ring.get(), 0, 0, "a"));
  REQUIRE(Open(ring.get(), 1, 0, "b"));
  REQUIRE(Open(ring.get(), 0, 1, "c"));
  REQUIRE(Open(ring.get(), 1, 1, "d"));
  CHECK(Take(ring.get(), 0, 1) == "c");  // from the middle: the ranges above move down
  REQUIRE(Open(ring.get(), 0, 1, "e"));
  CHECK(Take(ring.get(), 0, 1) == "e");
  CHECK(Take(ring.get(), 1, 1) == "d");
  CHECK(Take(ring.get(), 1, 0) == "b");
  CHECK(Take(ring.get(), 0, 0) == "a");
  CHECK(OpenTexts(*ring).empty());
  // A retired ring the launcher cleared: its next owner starts from nothing.
  REQUIRE(Open(ring.get(), 0, 0, "f"));
  REQUIRE(Open(ring.get(), 0, 1, "g"));
  ring->ClearOpenRanges();
  CHECK(Take(ring.get(), 0, 1).empty());
  REQUIRE(Open(ring.get(), 0, 0, "h"));
  CHECK(Take(ring.get(), 0, 0) == "h");
  CHECK(OpenTexts(*ring).empty());
}

TEST_CASE("a popped range that wraps around the ring's end is appended whole and ended", "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  std::vector<char> out(ThreadRing::kCapacity);
  // As in the wrap test above: 32 bytes free at the ring's end and 40 at its start.
  const size_t filler = (ThreadRing::kCapacity - 32) / 40;
  for (size_t i = 0; i < filler; ++i) REQUIRE(Append(ring.get(), i));
  REQUIRE(ring->Drain(out.data(), 40) == 40);
  const NvtxRangeAttributes attributes{
      7, 9, 3, 0xff00ff00, 1, NvtxMessageKind::kRegistered, NvtxPayloadKind::kUnsignedInt64};
  REQUIRE(Open(ring.get(), 2, 0, "wraps", attributes));  // 64 + 8 bytes
  const ThreadRing::ClosedRange range = ring->CloseRange(2, 0);
  REQUIRE(range.size == 72);
  REQUIRE(ring->AppendClosedRange(range, 555));
  ring->EndClose(range);
  CHECK(OpenTexts(*ring).empty());
  const size_t drained = ring->Drain(out.data(), out.size());
  REQUIRE(drained == (filler - 1) * 40 + 72);
  NvtxEventRecord popped;
  std::memcpy(&popped, out.data() + drained - 72, sizeof(popped));
  CHECK(popped.header.size == 72);
  CHECK(popped.header.kind == RecordKind::kNvtxPushPopRange);
  CHECK(popped.domain_id == 2);
  CHECK(popped.registered_string_id == 7);
  CHECK(popped.payload_bits == 9);
  CHECK(popped.category == 3);
  CHECK(popped.color == 0xff00ff00);
  CHECK(popped.has_color == 1);
  CHECK(popped.message_kind == NvtxMessageKind::kRegistered);
  CHECK(popped.payload_kind == NvtxPayloadKind::kUnsignedInt64);
  CHECK(popped.text_length == 5);
  CHECK(popped.end_ns == 555);
  CHECK(popped.ending == NvtxRangeEnding::kPopped);
  CHECK(std::string(out.data() + drained - 8, popped.text_length) == "wraps");
}

TEST_CASE("more open ranges than the starts hold are still found", "[ring]") {
  auto ring = std::make_unique<ThreadRing>();
  uint64_t level = 0;
  while (Open(ring.get(), 0, level, "")) ++level;  // 64-byte records: as many as fit
  REQUIRE(level == ThreadRing::kOpenRangeBytes / sizeof(NvtxEventRecord));
  for (uint64_t pop = level; pop-- > 0;) {
    INFO("level " << pop);
    const ThreadRing::ClosedRange range = ring->CloseRange(0, pop);
    REQUIRE(range.bytes != nullptr);
    CHECK(range.offset == pop * sizeof(NvtxEventRecord));
    ring->EndWrite();
    ring->EndClose(range);
  }
  CHECK(OpenTexts(*ring).empty());
}
