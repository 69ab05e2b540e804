// DwarfUnwinder on a real program's registers and stack, captured inside hot_seventy, unwound
// after the program exited: the frames must read hot_seventy, plugin_call (a dlopened library),
// prof_test::Drive(int), main. Also garbage in, a short answer out.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "collector/symbols/dwarf_unwinder.h"
#include "collector/symbols/module_files.h"
#include "collector/symbols/symbolizer.h"
#include "tests/symbols/symbols_capture.h"

namespace prof::test {
namespace {

using symbols::ByteSpan;
using symbols::DwarfUnwinder;
using symbols::ModuleFiles;
using symbols::ResolvedFrame;
using symbols::Symbolizer;

struct Frame {
  std::string symbol;
  std::string module;
  bool operator==(const Frame& other) const {
    return symbol == other.symbol && module == other.module;
  }
};

std::ostream& operator<<(std::ostream& out, const Frame& frame) {
  return out << frame.symbol << " @ " << frame.module;
}

// The capture's stack, unwound and resolved, up to and including main.
std::vector<Frame> UnwindToMain(const std::string& program) {
  SymbolsCapture capture = RunSymbolsTarget(program);
  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  DwarfUnwinder unwinder(table, files);
  Symbolizer symbolizer(table, files);
  std::vector<uint64_t> ips =
      unwinder.Unwind(kCapturedPid, capture.registers, {capture.stack.data(), capture.stack.size()},
                      capture.registers.sp(), 64);
  std::vector<Frame> frames;
  for (const ResolvedFrame& frame : symbolizer.ResolveStack(kCapturedPid, ips)) {
    frames.push_back({std::string(frame.symbol), std::string(frame.module)});
    if (frame.symbol == "main") break;
  }
  return frames;
}

std::vector<Frame> Expected(const std::string& program) {
  SymbolsCapture paths = RunSymbolsTarget(program);
  return {{"hot_seventy", paths.program},
          {"plugin_call", paths.plugin},
          {"prof_test::Drive(int)", paths.program},
          {"main", paths.program}};
}

TEST_CASE("a stack without frame pointers unwinds from hot_seventy to main") {
  CHECK(UnwindToMain("symbols_target_nofp") == Expected("symbols_target_nofp"));
}

TEST_CASE("a stack with frame pointers unwinds the same way") {
  CHECK(UnwindToMain("symbols_target_fp") == Expected("symbols_target_fp"));
}

TEST_CASE("the unwind stops at max_frames and needs a stack to go past the leaf") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  DwarfUnwinder unwinder(table, files);
  ByteSpan stack{capture.stack.data(), capture.stack.size()};
  uint64_t sp = capture.registers.sp();
  CHECK(unwinder.Unwind(kCapturedPid, capture.registers, stack, sp, 0).empty());
  CHECK(unwinder.Unwind(kCapturedPid, capture.registers, stack, sp, 2).size() == 2);
  // The process's session opened each of its files; later walks open none.
  uint64_t opened = files.counts().opened;
  CHECK(opened > 0);
  std::vector<uint64_t> leaf_only = unwinder.Unwind(kCapturedPid, capture.registers, {}, sp, 64);
  CHECK(leaf_only == std::vector<uint64_t>{capture.registers.ip()});
  // A stack copy that starts elsewhere holds none of the reads: the leaf only.
  CHECK(unwinder.Unwind(kCapturedPid, capture.registers, stack, sp + (1 << 20), 64).size() == 1);
  // Unknown process: the leaf, as given.
  CHECK(unwinder.Unwind(1, capture.registers, stack, sp, 64) ==
        std::vector<uint64_t>{capture.registers.ip()});
  CHECK(files.counts().opened == opened);
}

TEST_CASE("garbage registers and stacks give short answers, never a crash") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  DwarfUnwinder unwinder(table, files);
  std::mt19937_64 random(29);
  std::vector<uint8_t> noise(capture.stack.size());
  for (int round = 0; round < 300; ++round) {
    symbols::UserRegisters registers = capture.registers;
    for (uint64_t& value : registers.values) {
      if (random() % 3 == 0) value = random();
    }
    // Half the rounds keep a real code address, so the unwinder gets past the first frame's CFI
    // into the noise.
    if (round % 2 == 0) registers.values[PERF_REG_X86_IP] = capture.registers.ip();
    std::vector<uint8_t>& stack = round % 3 == 0 ? capture.stack : noise;
    for (uint8_t& byte : noise) byte = static_cast<uint8_t>(random());
    std::vector<uint64_t> ips =
        unwinder.Unwind(kCapturedPid, registers, {stack.data(), stack.size()}, registers.sp(), 32);
    REQUIRE(!ips.empty());
    REQUIRE(ips.size() <= 32);
    CHECK(ips[0] == registers.ip());
  }
}

}  // namespace
}  // namespace prof::test
