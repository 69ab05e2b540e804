// DrainTimeReads (collector/cpu_samples): what the reader thread reads of a process whose CPU
// samples or OS-runtime backtraces it drains (its address space, the text of the Python frames
// they carry), against frames_target.py; a process that exited keeps what was read while it ran.
// The backtraces' Python frames are checked end to end too
// (tests/osrt/osrt_backtrace_session_test.cpp).
#include "collector/cpu_samples/drain_time_reads.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "injection/protocol/clock.h"
#include "injection/protocol/cpython_layout.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/sample_records.h"
#include "tests/python_frames/python_target.h"
#include "tests/support/test_support.h"

namespace prof::collector {
namespace {

using Reads = DrainTimeReads;
using test::CommandResult;

// Ring records as the reader drains them: a CPU sample of each of `tids`, with `other` records of
// another kind before each, each sample carrying the Python frames `python`.
std::vector<char> SampleRecords(const std::vector<int>& tids, int other = 0,
                                const std::vector<std::pair<uint64_t, uint64_t>>& python = {}) {
  std::vector<char> bytes;
  auto append = [&](const void* record, size_t size) {
    const char* start = static_cast<const char*>(record);
    bytes.insert(bytes.end(), start, start + size);
  };
  for (const int tid : tids) {
    for (int i = 0; i < other; ++i) {
      protocol::RecordHeader header{};
      header.kind = protocol::RecordKind::kNvtxMark;
      header.size = sizeof(header);
      header.tid = static_cast<uint32_t>(tid);
      append(&header, sizeof(header));
    }
    protocol::CpuSampleRecord sample{};
    sample.header.kind = protocol::RecordKind::kCpuSample;
    sample.header.size = static_cast<uint16_t>(sizeof(sample) + sizeof(uint64_t) +
                                               python.size() * protocol::kSamplePythonFrameBytes);
    sample.header.tid = static_cast<uint32_t>(tid);
    sample.frame_count = 1;
    sample.periods = 1;
    sample.python_frame_count = static_cast<uint8_t>(python.size());
    append(&sample, sizeof(sample));
    const uint64_t ip = 0x1000;
    append(&ip, sizeof(ip));
    for (const auto& [code, instruction] : python) {
      append(&code, sizeof(code));
      append(&instruction, sizeof(instruction));
    }
  }
  return bytes;
}

// An OS-runtime call's record as the interposer sends it: `ips` native frames and `python`
// (code object, instruction) pairs after it; `extra` bytes more than its counts say (malformed).
std::vector<char> OsrtCall(const std::vector<uint64_t>& ips,
                           const std::vector<std::pair<uint64_t, uint64_t>>& python,
                           size_t extra = 0) {
  protocol::OsrtCallRecord call{};
  call.header.kind = protocol::RecordKind::kOsrtCall;
  call.header.size = static_cast<uint16_t>(sizeof(call) + ips.size() * sizeof(uint64_t) +
                                           python.size() * protocol::kOsrtPythonFrameBytes + extra);
  call.header.tid = static_cast<uint32_t>(getpid());
  call.native_frame_count = static_cast<uint8_t>(ips.size());
  call.python_frame_count = static_cast<uint8_t>(python.size());
  std::vector<char> bytes(call.header.size);
  std::memcpy(bytes.data(), &call, sizeof(call));
  if (!ips.empty())
    std::memcpy(bytes.data() + sizeof(call), ips.data(), ips.size() * sizeof(uint64_t));
  for (size_t i = 0; i < python.size(); ++i) {
    char* pair = bytes.data() + sizeof(call) + ips.size() * sizeof(uint64_t) +
                 i * protocol::kOsrtPythonFrameBytes;
    std::memcpy(pair, &python[i].first, sizeof(uint64_t));
    std::memcpy(pair + sizeof(uint64_t), &python[i].second, sizeof(uint64_t));
  }
  return bytes;
}

// Drains `tids`' samples of process `pid`, whose stream these tests number as the pid, unless
// `stream` says otherwise.
void Drain(Reads* reads, pid_t pid, const std::vector<int>& tids, int other = 0,
           uint64_t stream = 0, const std::vector<std::pair<uint64_t, uint64_t>>& python = {}) {
  const std::vector<char> records = SampleRecords(tids, other, python);
  reads->OnRingRecords(stream != 0 ? stream : static_cast<uint64_t>(pid),
                       static_cast<uint32_t>(pid), records.data(), records.size());
}

// A frame of `function` at its code's first instruction, as the program's reader records it: the
// instruction's address (3.11+), or f_lasti (3.10).
std::pair<uint64_t, uint64_t> FirstInstruction(const test::PythonTarget& target,
                                               const std::string& python,
                                               const std::string& function) {
  const CommandResult version =
      test::RunCommand({python, "-c", "import sys; print(sys.version_info[1])"});
  const protocol::cpython::Layout* layout =
      protocol::cpython::LayoutOf(3, std::atoi(version.out.c_str()));
  REQUIRE(layout != nullptr);
  const uint64_t code = target.CodeOf(function);
  REQUIRE(code != 0);
  return {code, layout->instruction_is_index ? 0 : code + layout->code_bytecode};
}

TEST_CASE("a sample's Python frames are described when it is drained, and kept after the exit") {
  const std::string python = test::SupportedPythons().at(0);
  INFO(python);
  test::PythonTarget target(python, "exit");  // exits on its own 0.3 s after "ready"
  INFO(target.error());
  REQUIRE(target.ok());
  const auto pid = static_cast<uint32_t>(target.pid());
  const auto [code, instruction] = FirstInstruction(target, python, "inner");
  Reads reads;
  // A sample of a process that has not started its interpreter's reader yet is tried again at
  // the next drain that carries the frame; within 10 s it is described.
  PythonFrameText text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!reads.DescribedFrame(pid, code, instruction, &text) &&
         std::chrono::steady_clock::now() < deadline) {
    Drain(&reads, target.pid(), {target.main_tid()}, 1, 0, {{code, instruction}});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(reads.DescribedFrame(pid, code, instruction, &text));
  CHECK(text.function == "inner");
  CHECK(text.file == target.file());
  CHECK(text.line == target.functions().at("inner").first);
  const std::string interpreter = reads.InterpreterOf(pid);
  CHECK(interpreter.find("python") != std::string::npos);
  // An address that holds no code object is not described.
  CHECK(!reads.DescribedFrame(pid, code + 8, instruction, &text));
  REQUIRE(target.WaitExit(10));
  // After the exit, drained again (nothing can be read any more): what was read stays.
  Drain(&reads, target.pid(), {target.main_tid()}, 0, 0, {{code, instruction}});
  REQUIRE(reads.DescribedFrame(pid, code, instruction, &text));
  CHECK(text.function == "inner");
  CHECK(reads.InterpreterOf(pid) == interpreter);
  const std::shared_ptr<const symbols::ProcessMaps> maps = reads.NewestMaps(pid);
  REQUIRE(maps != nullptr);
  bool interpreter_mapped = false;
  for (const auto& [start, mapping] : maps->mappings())
    interpreter_mapped = interpreter_mapped || mapping.path == interpreter;
  CHECK(interpreter_mapped);
}

TEST_CASE("a process's address space is read at its first sample and not again within a second") {
  Reads reads;
  const auto self = static_cast<uint32_t>(getpid());
  // Records without a CPU sample read nothing.
  protocol::RecordHeader mark{};
  mark.kind = protocol::RecordKind::kNvtxMark;
  mark.size = sizeof(mark);
  reads.OnRingRecords(self, self, reinterpret_cast<const char*>(&mark), sizeof(mark));
  CHECK(reads.NewestMaps(self) == nullptr);
  Drain(&reads, getpid(), {static_cast<int>(self)}, 2);
  const std::shared_ptr<const symbols::ProcessMaps> first = reads.NewestMaps(self);
  REQUIRE(first != nullptr);
  CHECK(first->Find(reinterpret_cast<uint64_t>(&SampleRecords)) != nullptr);  // this code
  // A resolver adopts it once.
  SampleResolver resolver;
  AdoptedMaps adopted;
  adopted.Update(&reads, self, self, &resolver);
  REQUIRE(resolver.MapsOf(self) != nullptr);
  CHECK(resolver.MapsOf(self)->Find(reinterpret_cast<uint64_t>(&SampleRecords)) != nullptr);
  // Samples within kMapsIntervalNs read nothing new...
  Drain(&reads, getpid(), {static_cast<int>(self)});
  CHECK(reads.NewestMaps(self) == first);
  // A new stream of the process (it exec'd) is read at its connection, not again at the sample
  // after it; the first stream keeps its own.
  const uint64_t exec_stream = uint64_t{self} + (uint64_t{1} << 32);
  reads.OnStreamConnected(exec_stream, self);
  const std::shared_ptr<const symbols::ProcessMaps> second = reads.NewestMaps(exec_stream);
  CHECK(second != nullptr);
  CHECK(second != first);
  Drain(&reads, getpid(), {static_cast<int>(self)}, 0, exec_stream);
  CHECK(reads.NewestMaps(exec_stream) == second);
  CHECK(reads.NewestMaps(self) == first);
  // The resolver takes the newest read of the stream a record came on.
  adopted.Update(&reads, exec_stream, self, &resolver);
  REQUIRE(resolver.MapsOf(self) != nullptr);
  // Once the collector is done with a stream, its reads go.
  reads.Forget(self);
  CHECK(reads.NewestMaps(self) == nullptr);
  CHECK(reads.NewestMaps(exec_stream) == second);
}

TEST_CASE("a library mapped just after the resolver read the address space is named at once") {
  const auto self = static_cast<uint32_t>(getpid());
  SampleResolver resolver;
  ResolvedSample resolved;
  // An address nothing maps: the resolver reads /proc/self/maps, and the address stays unknown.
  const uint64_t nowhere = 0x10;
  resolver.ResolveChain(self, &nowhere, 1, 1, &resolved);
  REQUIRE(resolved.frames.size() == 1);
  CHECK(resolved.frames[0].unresolved);
  // Then a file is mapped executable (as dlopen maps a library), well within the second.
  const std::string path = std::filesystem::canonical("/proc/self/exe").string();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  void* mapped = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
  close(fd);
  REQUIRE(mapped != MAP_FAILED);
  const uint64_t inside = reinterpret_cast<uint64_t>(mapped) + 16;
  resolver.ResolveChain(self, &inside, 1, 1, &resolved);
  munmap(mapped, 4096);
  REQUIRE(resolved.frames.size() == 1);
  // Before, the resolver read the maps at most once a second and called this "[unknown]".
  CHECK(resolved.frames[0].module == path);
}

TEST_CASE("a process that exited but is not reaped yet keeps the address space read while it ran") {
  // An exited process's /proc/<pid>/maps reads empty until its parent reaps it: the last drain
  // after its exit must not replace what was read while it ran.
  int go[2];
  REQUIRE(pipe(go) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    char byte;
    _exit(read(go[0], &byte, 1) == 1 ? 0 : 1);
  }
  close(go[0]);
  Reads reads;
  const auto pid = static_cast<uint32_t>(child);
  reads.OnStreamConnected(pid, pid);
  const std::shared_ptr<const symbols::ProcessMaps> running = reads.NewestMaps(pid);
  REQUIRE(running != nullptr);
  CHECK(running->Find(reinterpret_cast<uint64_t>(&SampleRecords)) != nullptr);
  REQUIRE(write(go[1], "x", 1) == 1);
  close(go[1]);
  // A zombie now (state Z), and a re-read is due.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string state;
  while (state != "Z" && std::chrono::steady_clock::now() < deadline) {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string line;
    std::getline(stat, line);
    state = line.substr(line.rfind(')') + 2, 1);
  }
  REQUIRE(state == "Z");
  std::this_thread::sleep_for(std::chrono::nanoseconds(Reads::kMapsIntervalNs + 10'000'000));
  Drain(&reads, child, {child});
  CHECK(reads.NewestMaps(pid) == running);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("processes without Python and malformed records describe no frame") {
  Reads reads;
  const auto self = static_cast<uint32_t>(getpid());  // this test runs no Python
  Drain(&reads, getpid(), {static_cast<int>(self)}, 2, 0, {{0x1000, 0x1010}});
  PythonFrameText text;
  CHECK(!reads.DescribedFrame(self, 0x1000, 0x1010, &text));
  CHECK(reads.InterpreterOf(self).empty());
  const std::shared_ptr<const symbols::ProcessMaps> first = reads.NewestMaps(self);
  CHECK(first != nullptr);
  // Malformed framing ends the walk: a record claiming 0 bytes, or more than what is there.
  std::vector<char> records = SampleRecords({static_cast<int>(self)});
  protocol::RecordHeader header{};
  header.kind = protocol::RecordKind::kCpuSample;
  header.size = 0;
  std::vector<char> zero(reinterpret_cast<char*>(&header),
                         reinterpret_cast<char*>(&header) + sizeof(header));
  reads.OnRingRecords(self, self, zero.data(), zero.size());
  header.size = 4096;
  std::memcpy(records.data(), &header, sizeof(header));
  reads.OnRingRecords(self, self, records.data(), records.size());
  CHECK(reads.NewestMaps(self) == first);
  // A stream that connects has its address space read at once; malformed records after that
  // read nothing more.
  const uint64_t other_stream = uint64_t{self} + (uint64_t{1} << 32);
  reads.OnStreamConnected(other_stream, self);
  const std::shared_ptr<const symbols::ProcessMaps> connected = reads.NewestMaps(other_stream);
  CHECK(connected != nullptr);
  reads.OnRingRecords(other_stream, self, records.data(), records.size());
  CHECK(reads.NewestMaps(other_stream) == connected);
}

TEST_CASE("an OS-runtime call's backtrace reads the address space when it is drained") {
  Reads reads;
  const auto self = static_cast<uint32_t>(getpid());
  const uint64_t here = reinterpret_cast<uint64_t>(&OsrtCall);
  // A call without a backtrace, and one whose size does not match its counts, read nothing.
  std::vector<char> plain = OsrtCall({}, {});
  reads.OnRingRecords(self, self, plain.data(), plain.size());
  std::vector<char> malformed = OsrtCall({here}, {}, 8);
  reads.OnRingRecords(self, self, malformed.data(), malformed.size());
  CHECK(reads.NewestMaps(self) == nullptr);
  // A backtrace does, after other records in the same drain.
  std::vector<char> records;
  protocol::RecordHeader mark{};
  mark.kind = protocol::RecordKind::kNvtxMark;
  mark.size = sizeof(mark);
  records.insert(records.end(), reinterpret_cast<char*>(&mark),
                 reinterpret_cast<char*>(&mark) + sizeof(mark));
  const std::vector<char> call = OsrtCall({here, here + 1}, {{0x1000, 0x1010}});
  records.insert(records.end(), call.begin(), call.end());
  reads.OnRingRecords(self, self, records.data(), records.size());
  const std::shared_ptr<const symbols::ProcessMaps> maps = reads.NewestMaps(self);
  REQUIRE(maps != nullptr);
  CHECK(maps->Find(here) != nullptr);
  // This process runs no Python: its Python frames have no text and no interpreter names them.
  PythonFrameText text;
  CHECK(!reads.DescribedFrame(self, 0x1000, 0x1010, &text));
  CHECK(reads.InterpreterOf(self).empty());
}

}  // namespace
}  // namespace prof::collector
