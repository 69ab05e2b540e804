// DrainTimeReads (collector/cpu_samples): what the reader thread reads of a process whose CPU
// samples or OS-runtime backtraces it drains (its address space, its sampled threads' Python
// stacks) and which stack read names a sample, against frames_target.py; a process that exited
// keeps what was read while it ran. The backtraces' Python frames are checked end to end
// (tests/osrt/osrt_backtrace_session_test.cpp).
#include "collector/cpu_samples/drain_time_reads.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "injection/protocol/clock.h"
#include "injection/protocol/record_format.h"
#include "injection/protocol/sample_records.h"
#include "tests/python_frames/python_target.h"

namespace prof::collector {
namespace {

using Reads = DrainTimeReads;

// Ring records as the reader drains them: a CPU sample of each of `tids`, with `other` records of
// another kind before each.
std::vector<char> SampleRecords(const std::vector<int>& tids, int other = 0) {
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
    sample.header.size = sizeof(sample) + sizeof(uint64_t);
    sample.header.tid = static_cast<uint32_t>(tid);
    sample.frame_count = 1;
    append(&sample, sizeof(sample));
    const uint64_t ip = 0x1000;
    append(&ip, sizeof(ip));
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
           uint64_t stream = 0) {
  const std::vector<char> records = SampleRecords(tids, other);
  reads->OnRingRecords(stream != 0 ? stream : static_cast<uint64_t>(pid),
                       static_cast<uint32_t>(pid), records.data(), records.size());
}

std::string Leaf(const std::shared_ptr<const Reads::PythonStack>& read) {
  return read == nullptr || read->frames.empty() ? "" : read->frames[0].function;
}

// Waits (10 s at most) until a read of thread `tid` names `function` innermost, as the script's
// threads do soon after "ready"; that read, or null.
std::shared_ptr<const Reads::PythonStack> WaitForLeaf(Reads* reads, pid_t pid, int tid,
                                                      const std::string& function) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    Drain(reads, pid, {tid});
    auto read = reads->StackAt(static_cast<uint32_t>(pid), static_cast<uint32_t>(tid),
                               protocol::MonotonicNowNs());
    if (Leaf(read) == function) return read;
  }
  return nullptr;
}

TEST_CASE("a sampled thread's stack is read when its sample is drained and names it") {
  const std::string python = test::SupportedPythons().at(0);
  INFO(python);
  test::PythonTarget target(python, "spin");
  INFO(target.error());
  REQUIRE(target.ok());
  const auto pid = static_cast<uint32_t>(target.pid());
  const auto main_tid = static_cast<uint32_t>(target.main_tid());
  const auto worker_tid = static_cast<uint32_t>(target.worker_tid());
  {
    Reads warm_up(true);
    REQUIRE(WaitForLeaf(&warm_up, target.pid(), target.main_tid(), "inner") != nullptr);
    REQUIRE(WaitForLeaf(&warm_up, target.pid(), target.worker_tid(), "other_loop") != nullptr);
  }
  Reads reads(true);
  // Nothing read yet: no sample is named.
  CHECK(reads.StackAt(pid, main_tid, protocol::MonotonicNowNs()) == nullptr);

  // Two drains 20 ms apart, each with samples of both threads among other records: the reads
  // lie within [a0, a1] and [b0, b1].
  const uint64_t a0 = protocol::MonotonicNowNs();
  Drain(&reads, target.pid(), {target.main_tid(), target.worker_tid()}, 3);
  const uint64_t a1 = protocol::MonotonicNowNs();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const uint64_t b0 = protocol::MonotonicNowNs();
  Drain(&reads, target.pid(), {target.main_tid(), target.worker_tid()}, 3);
  const uint64_t b1 = protocol::MonotonicNowNs();
  // A third drain within kMinReadIntervalNs reads nothing more.
  Drain(&reads, target.pid(), {target.main_tid()});

  // Samples are asked for in time order. Far before every read: none.
  CHECK(reads.StackAt(pid, main_tid, a0 - Reads::kReachNs - 1) == nullptr);
  // Just before the first read: the first read, which names the loop the thread spins in.
  const auto first_read = reads.StackAt(pid, main_tid, a0);
  REQUIRE(first_read != nullptr);
  CHECK(first_read->time_ns >= a0);
  CHECK(first_read->time_ns <= a1);
  CHECK(Leaf(first_read) == "inner");
  CHECK(first_read->interpreter_path.find("python") != std::string::npos);
  // Just after it: still the first, the nearer one.
  CHECK(reads.StackAt(pid, main_tid, a1 + 1'000'000) == first_read);
  // Just before the second read: the second.
  const auto second_read = reads.StackAt(pid, main_tid, b0 - 1'000'000);
  REQUIRE(second_read != nullptr);
  CHECK(second_read != first_read);
  CHECK(second_read->time_ns >= b0);
  CHECK(second_read->time_ns <= b1);
  CHECK(Leaf(second_read) == "inner");
  // After the last read (the third drain read nothing): the last read while within reach, then
  // none.
  const uint64_t t2 = second_read->time_ns;
  CHECK(reads.StackAt(pid, main_tid, t2 + Reads::kReachNs) == second_read);
  CHECK(reads.StackAt(pid, main_tid, t2 + Reads::kReachNs + 1) == nullptr);
  // The reads a later sample made needless are gone: a sample at the first read's time (out of
  // order) finds only the second.
  CHECK(reads.StackAt(pid, main_tid, first_read->time_ns) == second_read);
  // The other thread's reads are its own.
  const auto worker_read = reads.StackAt(pid, worker_tid, a0);
  REQUIRE(worker_read != nullptr);
  CHECK(Leaf(worker_read) == "other_loop");
}

TEST_CASE("a process that exited keeps the reads taken while it ran") {
  const std::string python = test::SupportedPythons().at(0);
  INFO(python);
  test::PythonTarget target(python, "exit");  // exits on its own 0.3 s after "ready"
  INFO(target.error());
  REQUIRE(target.ok());
  const auto pid = static_cast<uint32_t>(target.pid());
  const auto main_tid = static_cast<uint32_t>(target.main_tid());
  Reads reads(true);
  const std::shared_ptr<const Reads::PythonStack> last =
      WaitForLeaf(&reads, target.pid(), target.main_tid(), "inner");
  REQUIRE(last != nullptr);
  REQUIRE(target.WaitExit(10));
  // Its address space, read at its first sample: the interpreter is in it.
  const std::shared_ptr<const symbols::ProcessMaps> maps = reads.NewestMaps(pid);
  REQUIRE(maps != nullptr);
  bool interpreter_mapped = false;
  for (const auto& [start, mapping] : maps->mappings())
    interpreter_mapped = interpreter_mapped || mapping.path == last->interpreter_path;
  CHECK(interpreter_mapped);
  CHECK(reads.InterpreterOf(pid) == last->interpreter_path);
  // The samples the collector handles now, after the exit: drained (nothing to read any more)...
  Drain(&reads, target.pid(), {target.main_tid()});
  // ... and named by the last read taken while the process ran, if near enough.
  const uint64_t last_time = last->time_ns;
  const auto named = reads.StackAt(pid, main_tid, last_time + 1);
  REQUIRE(named != nullptr);
  CHECK(named->time_ns >= last_time);
  CHECK(Leaf(named) == "inner");
}

TEST_CASE("a process's address space is read at its first sample and not again within a second") {
  Reads reads(false);
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
  // Without Python frames no stack is read.
  CHECK(reads.StackAt(self, self, protocol::MonotonicNowNs()) == nullptr);
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
  Reads reads(false);
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

TEST_CASE("processes without Python and malformed records read no stack") {
  Reads reads(true);
  const auto self = static_cast<uint32_t>(getpid());  // this test runs no Python
  Drain(&reads, getpid(), {static_cast<int>(self)}, 2);
  CHECK(reads.StackAt(self, self, protocol::MonotonicNowNs()) == nullptr);
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
  CHECK(reads.StackAt(self, self, protocol::MonotonicNowNs()) == nullptr);
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
  Reads reads(false);
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
