#include "collector/stream_decoder.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "tests/protocol/stream_bytes.h"

using namespace prof::protocol;
using prof::collector::StreamDecoder;
using prof::test::Hello;

namespace {

std::vector<char> OsrtCall(uint64_t start, uint64_t end, uint16_t function) {
  OsrtCallRecord call{};
  call.header = {RecordKind::kOsrtCall, sizeof(call), 42, start};
  call.end_ns = end;
  call.function_id = function;
  std::vector<char> bytes(sizeof(call));
  std::memcpy(bytes.data(), &call, sizeof(call));
  return bytes;
}

}  // namespace

TEST_CASE("records split at any byte boundary come out whole and in order") {
  std::vector<char> stream = Hello(1234, "python3");
  for (uint16_t i = 0; i < 5; ++i) {
    auto call = OsrtCall(100 + i, 200 + i, i);
    stream.insert(stream.end(), call.begin(), call.end());
  }
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{17}, stream.size()}) {
    StreamDecoder decoder;
    std::vector<uint64_t> starts;
    std::string name;
    for (size_t offset = 0; offset < stream.size(); offset += chunk) {
      decoder.Feed(stream.data() + offset, std::min(chunk, stream.size() - offset));
      while (const RecordHeader* record = decoder.Next()) {
        if (record->kind == RecordKind::kStreamHello) {
          name.assign(reinterpret_cast<const char*>(record) + sizeof(StreamHello), 7);
        } else {
          starts.push_back(record->timestamp_ns);
        }
      }
    }
    INFO("chunk size " << chunk);
    CHECK(name == "python3");
    CHECK(starts == std::vector<uint64_t>{100, 101, 102, 103, 104});
    CHECK(decoder.PendingBytes() == 0);
    CHECK_FALSE(decoder.Failed());
  }
}

TEST_CASE("a stream that does not start with prof's hello is rejected") {
  StreamDecoder decoder;
  auto call = OsrtCall(1, 2, 0);
  decoder.Feed(call.data(), call.size());
  CHECK(decoder.Next() == nullptr);
  CHECK(decoder.Failed());
  CHECK(decoder.error() == "stream does not start with a hello record");
}

TEST_CASE("a hello of another protocol version is rejected") {
  auto hello = Hello(1, "x");
  reinterpret_cast<StreamHello*>(hello.data())->version = kStreamVersion + 1;
  StreamDecoder decoder;
  decoder.Feed(hello.data(), hello.size());
  CHECK(decoder.Next() == nullptr);
  CHECK(decoder.error() == "stream from an incompatible prof injection (version " +
                               std::to_string(kStreamVersion + 1) + ")");
}

TEST_CASE("a record size that breaks framing fails the stream instead of misreading it") {
  auto stream = Hello(1, "x");
  auto call = OsrtCall(1, 2, 0);
  reinterpret_cast<RecordHeader*>(call.data())->size = 12;
  stream.insert(stream.end(), call.begin(), call.end());
  StreamDecoder decoder;
  decoder.Feed(stream.data(), stream.size());
  CHECK(decoder.Next() != nullptr);  // the hello
  CHECK(decoder.Next() == nullptr);
  CHECK(decoder.error() == "corrupt record stream (record size 12)");
}

TEST_CASE("a stream cut mid-record keeps the partial bytes pending") {
  auto stream = Hello(1, "x");
  auto call = OsrtCall(1, 2, 0);
  stream.insert(stream.end(), call.begin(), call.begin() + 10);
  StreamDecoder decoder;
  decoder.Feed(stream.data(), stream.size());
  CHECK(decoder.Next() != nullptr);
  CHECK(decoder.Next() == nullptr);
  CHECK(decoder.PendingBytes() == 10);
  CHECK_FALSE(decoder.Failed());
}
