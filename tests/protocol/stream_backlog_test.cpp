// The launcher's queue of read stream bytes (collector/stream_backlog.h): order, memory bound,
// spill file, waiting for room and closing.
#include "collector/stream_backlog.h"

#include <poll.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::collector::StreamBacklog;
using prof::collector::StreamChunk;

namespace {

constexpr size_t kBuffer = 1024;

// Chunk `index` of a sequence: connection 1 + index % 3, `index` + 1 bytes of a pattern that
// differs per chunk, and every seventh one a connection's end.
StreamChunk ChunkOf(StreamBacklog* backlog, int index) {
  StreamChunk chunk;
  chunk.connection = 1 + static_cast<uint64_t>(index % 3);
  chunk.bytes = backlog->TakeBuffer(kBuffer);
  if (index % 7 == 6) {
    chunk.closed = true;
    return chunk;
  }
  chunk.length = static_cast<size_t>(index % 1000) + 1;
  for (size_t i = 0; i < chunk.length; ++i) chunk.bytes[i] = static_cast<char>(index * 31 + i);
  return chunk;
}

void CheckChunk(const StreamChunk& chunk, int index) {
  INFO("chunk " << index);
  CHECK(chunk.connection == 1 + static_cast<uint64_t>(index % 3));
  CHECK(chunk.closed == (index % 7 == 6));
  const size_t length = index % 7 == 6 ? 0 : static_cast<size_t>(index % 1000) + 1;
  REQUIRE(chunk.length == length);
  REQUIRE(chunk.bytes.size() >= length);
  size_t wrong = 0;
  for (size_t i = 0; i < length; ++i) wrong += chunk.bytes[i] != static_cast<char>(index * 31 + i);
  CHECK(wrong == 0);
}

void Push(StreamBacklog* backlog, int index) {
  StreamChunk chunk = ChunkOf(backlog, index);
  backlog->Push(&chunk);
}

bool Readable(int fd) {
  pollfd ready{fd, POLLIN, 0};
  return poll(&ready, 1, 0) == 1;
}

// Pushes `chunk` on another thread; the future is ready once Push() returned.
std::future<void> PushAsync(StreamBacklog* backlog, StreamChunk chunk) {
  return std::async(std::launch::async,
                    [backlog, moved = std::move(chunk)]() mutable { backlog->Push(&moved); });
}

constexpr auto kWaitsForRoom = std::chrono::milliseconds(200);
constexpr auto kWatchdog = std::chrono::seconds(10);

}  // namespace

TEST_CASE("chunks beyond the memory bound wait in a spill file, in order and intact", "[backlog]") {
  StreamBacklog backlog(2 * kBuffer, uint64_t{1} << 20);  // two chunks in memory
  backlog.SpillTo(prof::test::MakeTempDir("backlog_spill"));
  const int count = 200;
  for (int i = 0; i < count; ++i) Push(&backlog, i);
  CHECK(backlog.bytes_on_disk() > 0);
  uint64_t spilled = 0;
  for (int i = 2; i < count; ++i) spilled += i % 7 == 6 ? 0 : static_cast<uint64_t>(i % 1000) + 1;
  CHECK(backlog.spilled_bytes() == spilled);  // all but the first two

  StreamChunk chunk;
  for (int i = 0; i < count; ++i) {
    REQUIRE(backlog.Take(&chunk));
    CheckChunk(chunk, i);
    backlog.Recycle(std::move(chunk));
  }
  CHECK_FALSE(backlog.Take(&chunk));
  CHECK(backlog.empty());
  CHECK(backlog.bytes_on_disk() == 0);
}

TEST_CASE("once the spill file is empty again new chunks go to memory", "[backlog]") {
  StreamBacklog backlog(kBuffer, uint64_t{1} << 20);
  backlog.SpillTo(prof::test::MakeTempDir("backlog_again"));
  StreamChunk in_memory = ChunkOf(&backlog, 0);
  backlog.Push(&in_memory);
  CHECK(in_memory.bytes.empty());  // the buffer went with the bytes
  StreamChunk on_disk = ChunkOf(&backlog, 1);
  backlog.Push(&on_disk);
  CHECK(on_disk.bytes.size() == kBuffer);  // only the bytes went: the buffer is the next read's
  CHECK(backlog.spilled_bytes() == 2);
  StreamChunk chunk;
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 0);
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 1);
  CHECK(backlog.bytes_on_disk() == 0);
  Push(&backlog, 2);
  CHECK(backlog.spilled_bytes() == 2);
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 2);
}

TEST_CASE("without a spill directory a full memory makes the reader wait for the collector",
          "[backlog]") {
  StreamBacklog backlog(kBuffer, uint64_t{1} << 20);
  Push(&backlog, 0);
  std::future<void> pushed = PushAsync(&backlog, ChunkOf(&backlog, 1));
  CHECK(pushed.wait_for(kWaitsForRoom) == std::future_status::timeout);
  StreamChunk chunk;
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 0);
  REQUIRE(pushed.wait_for(kWatchdog) == std::future_status::ready);
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 1);
  CHECK(backlog.spilled_bytes() == 0);
}

TEST_CASE("a full spill file makes the reader wait, and the order still holds", "[backlog]") {
  // Room for one chunk in memory and about three of 100 bytes on disk.
  StreamBacklog backlog(kBuffer, 3 * (24 + 100));
  backlog.SpillTo(prof::test::MakeTempDir("backlog_full"));
  std::future<void> pushed = std::async(std::launch::async, [&] {
    for (int i = 0; i < 10; ++i) {
      StreamChunk chunk;
      chunk.connection = 1;
      chunk.bytes = backlog.TakeBuffer(kBuffer);
      chunk.length = 100;
      chunk.bytes[0] = static_cast<char>(i);
      backlog.Push(&chunk);
    }
  });
  CHECK(pushed.wait_for(kWaitsForRoom) == std::future_status::timeout);
  CHECK(backlog.bytes_on_disk() == 3 * (24 + 100));
  StreamChunk chunk;
  for (int i = 0; i < 10; ++i) {
    const auto deadline = std::chrono::steady_clock::now() + kWatchdog;
    while (!backlog.Take(&chunk)) REQUIRE(std::chrono::steady_clock::now() < deadline);
    CHECK(chunk.length == 100);
    CHECK(chunk.bytes[0] == static_cast<char>(i));
    backlog.Recycle(std::move(chunk));
  }
  REQUIRE(pushed.wait_for(kWatchdog) == std::future_status::ready);
  CHECK(backlog.spilled_bytes() >= 300);
}

TEST_CASE("a spill directory that cannot be used makes the reader wait instead", "[backlog]") {
  StreamBacklog backlog(kBuffer, uint64_t{1} << 20);
  backlog.SpillTo(prof::test::MakeTempDir("backlog_missing") + "/no/such/dir");
  Push(&backlog, 0);
  std::future<void> pushed = PushAsync(&backlog, ChunkOf(&backlog, 1));
  CHECK(pushed.wait_for(kWaitsForRoom) == std::future_status::timeout);
  StreamChunk chunk;
  REQUIRE(backlog.Take(&chunk));
  REQUIRE(pushed.wait_for(kWatchdog) == std::future_status::ready);
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 1);
  CHECK(backlog.spilled_bytes() == 0);
}

TEST_CASE("Close ends a wait for room and later chunks are thrown away", "[backlog]") {
  StreamBacklog backlog(kBuffer, uint64_t{1} << 20);
  Push(&backlog, 0);
  std::future<void> pushed = PushAsync(&backlog, ChunkOf(&backlog, 1));
  CHECK(pushed.wait_for(kWaitsForRoom) == std::future_status::timeout);
  backlog.Close();
  REQUIRE(pushed.wait_for(kWatchdog) == std::future_status::ready);
  Push(&backlog, 2);
  StreamChunk chunk;
  REQUIRE(backlog.Take(&chunk));
  CheckChunk(chunk, 0);
  CHECK_FALSE(backlog.Take(&chunk));
}

TEST_CASE("the ready descriptor is readable while pushed chunks wait to be taken", "[backlog]") {
  StreamBacklog backlog(2 * kBuffer, uint64_t{1} << 20);
  CHECK_FALSE(Readable(backlog.ready_fd()));
  Push(&backlog, 0);
  CHECK(Readable(backlog.ready_fd()));
  backlog.ClearReady();
  CHECK_FALSE(Readable(backlog.ready_fd()));
  Push(&backlog, 1);
  CHECK(Readable(backlog.ready_fd()));
}
