#include "injection/core/thread_buffer.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
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

TEST_CASE("the ring refuses records once full and accepts them again after a drain") {
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

TEST_CASE("records that wrap around the ring's end drain intact and in order") {
  auto buffer = std::make_unique<ThreadBuffer>();
  std::vector<char> out(ThreadBuffer::kCapacity);
  // Advance the ring to 16 bytes before its end, so the next record wraps.
  const size_t filler = (ThreadBuffer::kCapacity - 8) / 40;
  for (size_t i = 0; i < filler; ++i) REQUIRE(Append(buffer.get(), i));
  buffer->Drain(out.data(), out.size());
  const std::string text = "a name that wraps";
  REQUIRE(Append(buffer.get(), 1000, text));
  REQUIRE(Append(buffer.get(), 1001));
  const size_t drained = buffer->Drain(out.data(), out.size());
  CHECK(drained == AlignedRecordSize(40 + text.size()) + 40);
  CHECK(Numbers(out.data(), drained) == std::vector<uint64_t>{1000, 1001});
  CHECK(std::string(out.data() + 40, text.size()) == text);
}

TEST_CASE("a drain bounded by capacity stops at a record boundary") {
  auto buffer = std::make_unique<ThreadBuffer>();
  for (uint64_t i = 0; i < 10; ++i) REQUIRE(Append(buffer.get(), i));
  std::vector<char> out(100);
  CHECK(buffer->Drain(out.data(), out.size()) == 80);
  CHECK(Numbers(out.data(), 80) == std::vector<uint64_t>{0, 1});
  CHECK(buffer->UsedBytes() == 8 * 40);
}
