#include "injection/core/thread_buffer.h"

#include <sys/mman.h>  // mincore
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "injection/protocol/record_format.h"

using namespace prof::protocol;
using prof::injection::ThreadBuffer;

namespace {

// A 40-byte record whose timestamp numbers it, followed by `text`.
bool Append(ThreadBuffer* buffer, uint64_t number, const std::string& text = "") {
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
  auto buffer = std::make_unique<ThreadBuffer>();
  const size_t per_record = 40;
  const size_t fits = ThreadBuffer::kCapacity / per_record;
  for (size_t i = 0; i < fits; ++i) REQUIRE(Append(buffer.get(), i));
  CHECK_FALSE(Append(buffer.get(), fits));
  CHECK(buffer->UsedBytes() == fits * per_record);

  std::vector<char> out(ThreadBuffer::kCapacity);
  CHECK(buffer->Drain(out.data(), out.size()) == fits * per_record);
  CHECK(buffer->UsedBytes() == 0);
  CHECK(Append(buffer.get(), fits));
}

TEST_CASE("records that wrap around the ring's end drain intact and in order", "[ring]") {
  auto buffer = std::make_unique<ThreadBuffer>();
  std::vector<char> out(ThreadBuffer::kCapacity);
  // Advance the ring to 16 bytes before its end and drain all but the last record (an empty ring
  // would start again at its beginning), so the next record wraps.
  const size_t filler = (ThreadBuffer::kCapacity - 8) / 40;
  for (size_t i = 0; i < filler; ++i) REQUIRE(Append(buffer.get(), i));
  REQUIRE(buffer->Drain(out.data(), (filler - 1) * 40) == (filler - 1) * 40);
  const std::string text = "a name that wraps";
  REQUIRE(Append(buffer.get(), 1000, text));
  REQUIRE(Append(buffer.get(), 1001));
  const size_t drained = buffer->Drain(out.data(), out.size());
  CHECK(drained == 40 + AlignedRecordSize(40 + text.size()) + 40);
  CHECK(Numbers(out.data(), drained) == std::vector<uint64_t>{filler - 1, 1000, 1001});
  CHECK(std::string(out.data() + 80, text.size()) == text);
}

TEST_CASE("a drain bounded by capacity stops at a record boundary", "[ring]") {
  auto buffer = std::make_unique<ThreadBuffer>();
  for (uint64_t i = 0; i < 10; ++i) REQUIRE(Append(buffer.get(), i));
  std::vector<char> out(100);
  CHECK(buffer->Drain(out.data(), out.size()) == 80);
  CHECK(Numbers(out.data(), 80) == std::vector<uint64_t>{0, 1});
  CHECK(buffer->UsedBytes() == 8 * 40);
}

TEST_CASE("a thread whose ring keeps emptying reuses the pages at its start", "[ring]") {
  // A new buffer, as a new thread gets one (its memory is never unmapped, as in the program).
  ThreadBuffer* buffer = ThreadBuffer::MapNew();
  REQUIRE(buffer != nullptr);
  std::vector<char> out(1 << 16);
  // Twice the ring's size in total, 100 records (4,000 bytes) at a time, drained in between.
  uint64_t number = 0;
  for (size_t round = 0; round < 2 * ThreadBuffer::kCapacity / 4000; ++round) {
    for (int i = 0; i < 100; ++i) REQUIRE(Append(buffer, number++));
    REQUIRE(Numbers(out.data(), buffer->Drain(out.data(), out.size())).front() == number - 100);
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((sizeof(ThreadBuffer) + page - 1) / page);
  REQUIRE(mincore(buffer, sizeof(ThreadBuffer), resident.data()) == 0);
  size_t resident_pages = 0;
  for (unsigned char flags : resident) resident_pages += flags & 1;
  // The header's page and the first 4,000 bytes of the ring: 2 or 3 pages, not the whole ring.
  CHECK(resident_pages <= 3);
}

TEST_CASE("a producer and a drainer at once: every record arrives whole, in order", "[ring]") {
  // The drainer often finds the ring empty, so the producer rewinds it many times while the
  // drainer reads; records of varying sizes also wrap around the end.
  ThreadBuffer* buffer = ThreadBuffer::MapNew();
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
  CHECK(largest_used <= ThreadBuffer::kCapacity);
}
