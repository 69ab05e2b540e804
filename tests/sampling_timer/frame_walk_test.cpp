// The fallback sampler's frame-pointer walk on hand-built stacks: every read stays inside the
// stack, frames must go up, and the depth cap and a chain that leaves the stack say "truncated".
#include "injection/core/frame_walk.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "injection/protocol/sample_records.h"

namespace {

using prof::injection::StackBounds;
using prof::injection::WalkFramePointers;
using prof::injection::WalkResult;

// A fake stack of 64-bit words; frame records {saved fp, return address} are placed at word
// indexes, linked upwards.
struct FakeStack {
  explicit FakeStack(size_t words) : memory(words, 0) {}
  uintptr_t Address(size_t index) const { return reinterpret_cast<uintptr_t>(&memory[index]); }
  StackBounds Bounds() const { return {Address(0), Address(0) + memory.size() * sizeof(uint64_t)}; }
  // A frame record at `index` returning to `return_address`, whose caller's record is at `next`
  // (SIZE_MAX: none, fp 0).
  void Frame(size_t index, uint64_t return_address, size_t next) {
    memory[index] = next == SIZE_MAX ? 0 : Address(next);
    memory[index + 1] = return_address;
  }
  std::vector<uint64_t> memory;
};

std::vector<uint64_t> Ips(const uint64_t* ips, const WalkResult& result) {
  return std::vector<uint64_t>(ips, ips + result.count);
}

}  // namespace

TEST_CASE("a chain ending in a null frame pointer is walked whole", "[timer_sampling]") {
  FakeStack stack(64);
  stack.Frame(10, 0x1001, 20);
  stack.Frame(20, 0x2002, 30);
  stack.Frame(30, 0x3003, SIZE_MAX);
  uint64_t ips[8];
  const WalkResult result =
      WalkFramePointers(0x999, stack.Address(10), stack.Address(8), stack.Bounds(), ips, 8);
  CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999, 0x1001, 0x2002, 0x3003});
  CHECK_FALSE(result.truncated);
}

TEST_CASE("a null return address ends the chain", "[timer_sampling]") {
  FakeStack stack(64);
  stack.Frame(10, 0x1001, 20);
  stack.Frame(20, 0, 30);
  stack.Frame(30, 0x3003, SIZE_MAX);
  uint64_t ips[8];
  const WalkResult result =
      WalkFramePointers(0x999, stack.Address(10), stack.Address(10), stack.Bounds(), ips, 8);
  CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999, 0x1001});
  CHECK_FALSE(result.truncated);
}

TEST_CASE("the depth cap truncates", "[timer_sampling]") {
  FakeStack stack(1024);
  for (size_t i = 0; i < 300; ++i) stack.Frame(2 + 2 * i, 0x1000 + i, 2 + 2 * (i + 1));
  stack.Frame(602, 0x5000, SIZE_MAX);
  std::vector<uint64_t> ips(prof::protocol::kMaxSampleFrames);
  const WalkResult result = WalkFramePointers(0x999, stack.Address(2), stack.Address(0),
                                              stack.Bounds(), ips.data(), ips.size());
  CHECK(result.count == prof::protocol::kMaxSampleFrames);
  CHECK(result.truncated);
  CHECK(ips[1] == 0x1000);
  CHECK(ips[126] == 0x1000 + 125);
}

TEST_CASE("a frame pointer below the previous frame or outside the stack stops the walk",
          "[timer_sampling]") {
  uint64_t ips[8];
  SECTION("a loop back to an earlier frame") {
    FakeStack stack(64);
    stack.Frame(10, 0x1001, 20);
    stack.Frame(20, 0x2002, 10);
    const WalkResult result =
        WalkFramePointers(0x999, stack.Address(10), stack.Address(4), stack.Bounds(), ips, 8);
    CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999, 0x1001, 0x2002});
    CHECK(result.truncated);
  }
  SECTION("a frame pointer that is not a stack address") {
    FakeStack stack(64);
    stack.Frame(10, 0x1001, 20);
    stack.memory[20] = 0x12345678;  // garbage in the saved fp: a function using it as a register
    stack.memory[21] = 0x2002;
    const WalkResult result =
        WalkFramePointers(0x999, stack.Address(10), stack.Address(4), stack.Bounds(), ips, 8);
    CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999, 0x1001, 0x2002});
    CHECK(result.truncated);
  }
  SECTION("a record that would end past the stack's top") {
    FakeStack stack(64);
    stack.Frame(10, 0x1001, 63);
    const WalkResult result =
        WalkFramePointers(0x999, stack.Address(10), stack.Address(4), stack.Bounds(), ips, 8);
    CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999, 0x1001});
    CHECK(result.truncated);
  }
  SECTION("a misaligned frame pointer") {
    FakeStack stack(64);
    const WalkResult result =
        WalkFramePointers(0x999, stack.Address(10) + 3, stack.Address(4), stack.Bounds(), ips, 8);
    CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999});
    CHECK(result.truncated);
  }
  SECTION("a frame pointer below the stack pointer") {
    FakeStack stack(64);
    stack.Frame(10, 0x1001, SIZE_MAX);
    const WalkResult result =
        WalkFramePointers(0x999, stack.Address(10), stack.Address(12), stack.Bounds(), ips, 8);
    CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999});
    CHECK(result.truncated);
  }
}

TEST_CASE("a stack pointer outside the known stack gives the leaf alone", "[timer_sampling]") {
  FakeStack stack(64);
  stack.Frame(10, 0x1001, SIZE_MAX);
  uint64_t ips[8];
  // An alternate signal stack or a coroutine's: nothing of it is known to be mapped.
  const StackBounds elsewhere{stack.Address(32), stack.Address(32) + 128};
  WalkResult result =
      WalkFramePointers(0x999, stack.Address(10), stack.Address(4), elsewhere, ips, 8);
  CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999});
  CHECK(result.truncated);
  // Bounds never learnt.
  result = WalkFramePointers(0x999, stack.Address(10), stack.Address(4), {}, ips, 8);
  CHECK(Ips(ips, result) == std::vector<uint64_t>{0x999});
  CHECK(result.truncated);
  // No room at all.
  result = WalkFramePointers(0x999, stack.Address(10), stack.Address(4), stack.Bounds(), ips, 0);
  CHECK(result.count == 0);
}
