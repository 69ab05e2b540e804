// ProcessMaps and ProcessTable: mappings as mmap/exec/fork change them, and /proc/<pid>/maps.
#include "collector/symbols/process_maps.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "collector/symbols/process_table.h"
#include "collector/symbols/unwind_method.h"
#include "collector/symbols/user_registers.h"

namespace prof::symbols {
namespace {

Mapping Map(uint64_t start, uint64_t length, uint64_t offset, const std::string& path) {
  Mapping mapping;
  mapping.start = start;
  mapping.length = length;
  mapping.file_offset = offset;
  mapping.path = path;
  mapping.prot = PROT_READ | PROT_EXEC;
  return mapping;
}

// start, length, offset, path of every mapping, in address order.
std::vector<std::string> Describe(const ProcessMaps& maps) {
  std::vector<std::string> lines;
  for (const auto& [start, m] : maps.mappings()) {
    lines.push_back(std::to_string(m.start) + "+" + std::to_string(m.length) + "@" +
                    std::to_string(m.file_offset) + " " + m.path);
  }
  return lines;
}

TEST_CASE("a mapping over others cuts them, as mmap(MAP_FIXED) does") {
  ProcessMaps maps;
  maps.AddMapping(Map(1000, 1000, 0, "/a"));
  maps.AddMapping(Map(3000, 1000, 0, "/b"));
  maps.AddMapping(Map(1500, 2000, 0, "/c"));
  CHECK(Describe(maps) ==
        std::vector<std::string>{"1000+500@0 /a", "1500+2000@0 /c", "3500+500@500 /b"});
  maps.AddMapping(Map(1600, 100, 0, "/d"));
  CHECK(Describe(maps) == std::vector<std::string>{"1000+500@0 /a", "1500+100@0 /c",
                                                   "1600+100@0 /d", "1700+1800@200 /c",
                                                   "3500+500@500 /b"});
  REQUIRE(maps.Find(1650) != nullptr);
  CHECK(maps.Find(1650)->path == "/d");
  CHECK(maps.Find(999) == nullptr);
  CHECK(maps.Find(4000) == nullptr);
  CHECK(maps.Find(3999)->path == "/b");
  maps.AddMapping(Map(5000, 0, 0, "/empty"));
  CHECK(maps.mappings().size() == 5);
}

TEST_CASE("exec empties an address space, fork copies one, generations change") {
  ProcessTable table;
  table.Process(10).AddMapping(Map(1000, 1000, 0, "/parent"));
  uint64_t before = table.Find(10)->generation();
  table.Fork(11, 10);
  REQUIRE(table.Find(11) != nullptr);
  CHECK(Describe(*table.Find(11)) == std::vector<std::string>{"1000+1000@0 /parent"});
  CHECK(table.Find(11)->generation() != before);
  table.Process(11).Exec();
  CHECK(table.Find(11)->mappings().empty());
  CHECK(Describe(*table.Find(10)) == std::vector<std::string>{"1000+1000@0 /parent"});
  table.Fork(12, 99);  // unknown parent
  CHECK(table.Find(12)->mappings().empty());
  CHECK(table.Find(13) == nullptr);
}

TEST_CASE("/proc/<pid>/maps text parses, paths with spaces and deleted files included") {
  StatusOr<ProcessMaps> maps = ProcessMaps::ParseProcMaps(
      "55f20a097000-55f20a09c000 r-xp 00002000 fe:00 247134                     /usr/bin/cat\n"
      "7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
      "7f0000001000-7f0000002000 r-xp 00001000 fd:01 77  /tmp/my dir/lib.so (deleted)\n"
      "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n");
  REQUIRE(maps.ok());
  const Mapping* cat = maps->Find(0x55f20a097000);
  REQUIRE(cat != nullptr);
  CHECK(cat->length == 0x5000);
  CHECK(cat->file_offset == 0x2000);
  CHECK(cat->path == "/usr/bin/cat");
  CHECK(cat->prot == (PROT_READ | PROT_EXEC));
  CHECK(cat->identity.device_major == 0xfe);
  CHECK(cat->identity.device_minor == 0);
  CHECK(cat->identity.inode == 247134);
  CHECK(cat->HasFilePath());
  const Mapping* anonymous = maps->Find(0x7f0000000800);
  REQUIRE(anonymous != nullptr);
  CHECK(anonymous->path.empty());
  CHECK(anonymous->prot == (PROT_READ | PROT_WRITE));
  const Mapping* deleted = maps->Find(0x7f0000001000);
  REQUIRE(deleted != nullptr);
  CHECK(deleted->path == "/tmp/my dir/lib.so (deleted)");
  CHECK(deleted->IsDeleted());
  CHECK(!deleted->HasFilePath());
  CHECK(deleted->identity.device_major == 0xfd);
  CHECK(deleted->identity.device_minor == 1);
  CHECK(maps->Find(0x7ffc00000000)->path == "[stack]");
  CHECK(!maps->Find(0x7ffc00000000)->HasFilePath());

  StatusOr<ProcessMaps> broken = ProcessMaps::ParseProcMaps("7f00-zz r-xp 0 fe:00 1 /x\n");
  REQUIRE(!broken.ok());
  CHECK(broken.status().message() == "maps line 1 does not parse: 7f00-zz r-xp 0 fe:00 1 /x");
}

TEST_CASE("SnapshotFromProc reads a live process's mappings") {
  ProcessTable table;
  REQUIRE(table.SnapshotFromProc(getpid()).ok());
  const ProcessMaps* maps = table.Find(getpid());
  REQUIRE(maps != nullptr);
  const Mapping* code = maps->Find(reinterpret_cast<uintptr_t>(&Describe));
  REQUIRE(code != nullptr);
  CHECK(code->path == std::filesystem::canonical("/proc/self/exe").string());
  CHECK((code->prot & PROT_EXEC) != 0);
  struct stat st {};
  REQUIRE(stat("/proc/self/exe", &st) == 0);
  CHECK(code->identity.inode == st.st_ino);
  CHECK(!table.SnapshotFromProc(-5).ok());
}

TEST_CASE("SnapshotFromProc of processes that have ended is an error, never an exception") {
  // A process reaped between opening its maps and reading them fails the read with ESRCH; these
  // are the deterministic neighbours: a zombie (no address space left) and a reaped pid.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) _exit(0);
  usleep(50000);  // a zombie until reaped
  StatusOr<ProcessMaps> zombie = ProcessMaps::SnapshotFromProc(child);
  if (zombie.ok()) CHECK(zombie.value().mappings().empty());
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  StatusOr<ProcessMaps> reaped = ProcessMaps::SnapshotFromProc(child);
  REQUIRE(!reaped.ok());
  CHECK(reaped.status().message().rfind("cannot read /proc/" + std::to_string(child) + "/maps: ",
                                        0) == 0);
}

TEST_CASE("perf's register block unpacks by its mask, and unwind method ids are nsys's") {
  std::vector<uint64_t> block;
  for (uint64_t i = 0; i < 17; ++i) block.push_back(100 + i);  // 17 bits in the mask
  UserRegisters registers =
      UserRegisters::FromPerfSample(kUnwindRegisterMask, block.data(), block.size());
  CHECK(registers.values[PERF_REG_X86_AX] == 100);
  CHECK(registers.sp() == 107);
  CHECK(registers.ip() == 108);
  CHECK(registers.values[PERF_REG_X86_FLAGS] == 0);
  CHECK(registers.values[PERF_REG_X86_R8] == 109);
  CHECK(registers.values[PERF_REG_X86_R15] == 116);
  UserRegisters partial = UserRegisters::FromPerfSample(kUnwindRegisterMask, block.data(), 2);
  CHECK(partial.values[PERF_REG_X86_BX] == 101);
  CHECK(partial.values[PERF_REG_X86_CX] == 0);
  CHECK(kUnwindRegisterMask == 0xff01ff);
  CHECK(static_cast<int>(UnwindMethod::kUnknown) == 0);
  CHECK(static_cast<int>(UnwindMethod::kFramePointer) == 1);
  CHECK(static_cast<int>(UnwindMethod::kDwarfEh) == 6);
}

}  // namespace
}  // namespace prof::symbols
