// Symbolizer on a real program's capture, resolved after the program exited: names (C and
// demangled C++), modules (the program, a dlopened library), and what unresolved frames say.
#include "collector/symbols/symbolizer.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "collector/symbols/module_files.h"
#include "tests/symbols/symbols_capture.h"

namespace prof::test {
namespace {

using symbols::FramePosition;
using symbols::ModuleFiles;
using symbols::ResolvedFrame;
using symbols::Symbolizer;

std::string Hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

TEST_CASE("functions of the program and of a dlopened library resolve with their modules") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  Symbolizer symbolizer(table, files);

  ResolvedFrame thirty = symbolizer.Resolve(kCapturedPid, capture.addresses["hot_thirty"]);
  CHECK(thirty.symbol == "hot_thirty");
  CHECK(thirty.module == capture.program);
  CHECK(!thirty.unresolved);
  CHECK(thirty.ip == capture.addresses["hot_thirty"]);

  ResolvedFrame drive = symbolizer.Resolve(kCapturedPid, capture.addresses["drive"] + 1);
  CHECK(drive.symbol == "prof_test::Drive(int)");
  CHECK(drive.module == capture.program);

  // A caller's return address is looked up one byte before it: hot_thirty's first byte as a
  // return address belongs to what precedes hot_thirty.
  ResolvedFrame before =
      symbolizer.Resolve(kCapturedPid, capture.addresses["hot_thirty"], FramePosition::kCaller);
  CHECK(before.symbol != "hot_thirty");
  CHECK(before.ip == capture.addresses["hot_thirty"]);

  // The leaf IP of the capture lies in hot_seventy; the plugin's function through a copy that is
  // still in place would resolve too, but its copies are gone or replaced (below).
  ResolvedFrame seventy = symbolizer.Resolve(kCapturedPid, capture.registers.ip());
  CHECK(seventy.symbol == "hot_seventy");
  CHECK(seventy.module == capture.program);
}

TEST_CASE("an address in the program's file where no symbol is reads as its file address") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  Symbolizer symbolizer(table, files);
  // The program's first mapping starts with its ELF header (offset 0, file address 0): no
  // function is there.
  const symbols::ProcessMaps* maps = table.Find(kCapturedPid);
  const symbols::Mapping* header = nullptr;
  for (const auto& [start, mapping] : maps->mappings()) {
    if (mapping.path == capture.program && mapping.file_offset == 0) header = &mapping;
  }
  REQUIRE(header != nullptr);
  ResolvedFrame frame = symbolizer.Resolve(kCapturedPid, header->start + 0x10);
  CHECK(frame.symbol == "0x10");
  CHECK(frame.module == capture.program);
  CHECK(frame.unresolved);
  CHECK(frame.ip == header->start + 0x10);
}

TEST_CASE("anonymous memory, deleted and replaced files stay unresolved with their address") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  // Replace replaced.so after the program's exit: a new file (new inode) under the same path.
  std::string replaced_path = capture.dir + "/replaced.so";
  std::filesystem::copy_file(capture.program, replaced_path + ".new");
  std::filesystem::rename(replaced_path + ".new", replaced_path);

  symbols::ProcessTable table = TableOf(capture);
  ModuleFiles files;
  Symbolizer symbolizer(table, files);

  uint64_t anonymous = capture.addresses["anonymous"] + 0x40;
  ResolvedFrame frame = symbolizer.Resolve(kCapturedPid, anonymous);
  CHECK(frame.symbol == Hex(anonymous));
  CHECK(frame.module == "[unknown]");
  CHECK(frame.unresolved);
  CHECK(frame.ip == anonymous);

  uint64_t doomed = capture.addresses["doomed"];
  frame = symbolizer.Resolve(kCapturedPid, doomed);
  CHECK(frame.symbol == Hex(doomed));
  CHECK(frame.module == capture.dir + "/doomed.so (deleted)");
  CHECK(frame.unresolved);
  CHECK(frame.ip == doomed);

  uint64_t replaced = capture.addresses["replaced"];
  frame = symbolizer.Resolve(kCapturedPid, replaced);
  CHECK(frame.symbol == Hex(replaced));
  CHECK(frame.module == replaced_path);
  CHECK(frame.unresolved);

  ResolvedFrame nowhere = symbolizer.Resolve(kCapturedPid, 8);
  CHECK(nowhere.symbol == "0x8");
  CHECK(nowhere.module == "[unknown]");
  ResolvedFrame no_process = symbolizer.Resolve(1, capture.addresses["hot_thirty"]);
  CHECK(no_process.module == "[unknown]");
  CHECK(no_process.unresolved);

  // A pseudo mapping keeps its name as the module.
  const symbols::Mapping* vdso = nullptr;
  for (const auto& [start, mapping] : table.Find(kCapturedPid)->mappings()) {
    if (mapping.path == "[vdso]") vdso = &mapping;
  }
  REQUIRE(vdso != nullptr);
  frame = symbolizer.Resolve(kCapturedPid, vdso->start + 0x10);
  CHECK(frame.symbol == Hex(vdso->start + 0x10));
  CHECK(frame.module == "[vdso]");
  CHECK(frame.unresolved);

  CHECK(files.counts().deleted == 1);
  CHECK(files.counts().replaced == 1);
  CHECK(files.counts().missing == 0);
  CHECK(symbolizer.counts().unresolved == 6);
}

TEST_CASE("an address is resolved once and each file opened once, across processes") {
  SymbolsCapture capture = RunSymbolsTarget("symbols_target_nofp");
  symbols::ProcessTable table = TableOf(capture);
  table.Fork(kCapturedPid + 1, kCapturedPid);
  ModuleFiles files;
  Symbolizer symbolizer(table, files);
  uint64_t address = capture.addresses["hot_thirty"];

  CHECK(symbolizer.Resolve(kCapturedPid, address).symbol == "hot_thirty");
  CHECK(files.counts().opened == 1);
  CHECK(symbolizer.counts().resolved_addresses == 1);
  CHECK(symbolizer.counts().cache_hits == 0);

  ResolvedFrame again = symbolizer.Resolve(kCapturedPid, address);
  ResolvedFrame forked = symbolizer.Resolve(kCapturedPid + 1, address);
  CHECK(again.symbol == "hot_thirty");
  CHECK(forked.symbol == "hot_thirty");
  // Interned: the same characters, not copies.
  CHECK(again.symbol.data() == forked.symbol.data());
  CHECK(again.module.data() == forked.module.data());
  CHECK(files.counts().opened == 1);
  CHECK(symbolizer.counts().resolved_addresses == 1);
  CHECK(symbolizer.counts().cache_hits == 2);

  CHECK(symbolizer.Resolve(kCapturedPid, capture.addresses["drive"]).symbol ==
        "prof_test::Drive(int)");
  CHECK(files.counts().opened == 1);
  CHECK(symbolizer.counts().resolved_addresses == 2);
}

}  // namespace
}  // namespace prof::test
