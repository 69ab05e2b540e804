// What the launcher must read of a process to name the CPU samples it took of itself (the fallback
// sampler, when perf_event_open is refused; collector/timer_sample_tracker.h), read while the
// process runs: its address space (/proc/<pid>/maps) and, with Python frames on, the Python stacks
// of its sampled threads. The session's reader thread reads them as it drains the samples from the
// rings (SessionServer's RingRecordObserver): within a drain interval (10 ms) of each sample, as
// prof-sampler reads Python stacks for the kernel's samples.
//
// Why not when the collector thread writes a sample: that thread may be seconds behind the program
// under load (it decodes and writes every stream). By then a thread runs other code, or its process
// has exited and nothing of it can be read: a DataLoader worker's samples would lose their native
// names and Python frames, or be named by what ran long after.
//
// - Address spaces: read at a process's first drained sample, then at most once per
//   kMapsIntervalNs while samples keep coming; the collector takes the newest (TakeMaps).
// - Python stacks: each read kept with its time. A sample is named by the read nearest to it, if
//   that read lies within kReachNs: the first read after it normally, the last one before it when
//   the process exited before the next drain. Reads a named sample no longer needs are dropped.
//
// OnRingRecords runs on the reader thread, TakeMaps and StackAt on the collector thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/python_frames/python_stack_reader.h"
#include "collector/session_server.h"
#include "collector/symbols/process_maps.h"

namespace prof::collector {

class SampledProcessReads : public RingRecordObserver {
 public:
  struct PythonStack {
    uint64_t time_ns = 0;                 // CLOCK_MONOTONIC of the read
    std::string interpreter_path;         // the process's libpython or python binary
    std::vector<PythonFrameText> frames;  // innermost first; empty: the thread ran no Python
  };

  // How often a sampled process's address space is read again (it may load libraries).
  static constexpr uint64_t kMapsIntervalNs = 1'000'000'000;
  // How far a Python stack's read may lie from the sample it names.
  static constexpr uint64_t kReachNs = 100'000'000;
  // A thread's stack is read at most once per this long (a pass may drain its ring in pieces).
  static constexpr uint64_t kMinReadIntervalNs = 2'000'000;
  // A process whose Python stacks cannot be read (yet) is tried again after this long.
  static constexpr uint64_t kAttachRetryNs = 50'000'000;
  // Stack reads kept per thread for samples still to be named: 10 s of a collector's lag at 100
  // reads a second.
  static constexpr size_t kMaxReadsPerThread = 1024;

  explicit SampledProcessReads(bool python_stacks) : python_stacks_(python_stacks) {}

  // A process connected: what was read of an earlier image of `pid` (before an exec) is stale.
  void OnProcessConnected(uint32_t pid) override { processes_.erase(pid); }
  // Reads what the CPU samples among `records` (whole records of process `pid`) need.
  void OnRingRecords(uint32_t pid, const char* records, size_t size) override;

  // Process `pid`'s address space as last read, if read since the last call for it.
  std::optional<symbols::ProcessMaps> TakeMaps(uint32_t pid);
  // The Python stack read that names the sample thread `tid` of process `pid` took at `time_ns`
  // (CLOCK_MONOTONIC), or null. A thread's samples must be asked for in time order.
  std::shared_ptr<const PythonStack> StackAt(uint32_t pid, uint32_t tid, uint64_t time_ns);

 private:
  // Reader thread only.
  struct Process {
    uint64_t maps_read_ns = 0;
    std::unique_ptr<PythonStackReader> python;
    // Until the Python stack reader attaches (the interpreter may still be starting): the last
    // address space read, and when to try again.
    std::optional<symbols::ProcessMaps> maps_to_attach;
    uint64_t next_attach_ns = 0;
    std::unordered_map<uint32_t, uint64_t> stack_read_ns;  // by tid
  };
  // Reads the address space if due; false when the process is gone.
  bool ReadMaps(uint32_t pid, Process* process, uint64_t now_ns);
  // The process's Python stack reader, attached at the first try that succeeds; or null.
  PythonStackReader* PythonOf(uint32_t pid, Process* process, uint64_t now_ns);
  void ReadPythonStacks(uint32_t pid, Process* process, uint64_t now_ns);

  const bool python_stacks_;
  std::unordered_map<uint32_t, Process> processes_;  // by pid
  std::vector<uint32_t> sampled_tids_;               // scratch
  std::vector<PythonFrameText> read_;                // scratch

  // Both threads.
  static uint64_t Key(uint32_t pid, uint32_t tid) { return uint64_t{pid} << 32 | tid; }
  std::mutex mutex_;
  std::unordered_map<uint32_t, symbols::ProcessMaps> maps_;  // by pid, not taken yet
  std::unordered_map<uint64_t, std::deque<std::shared_ptr<const PythonStack>>> stacks_;  // by Key
};

}  // namespace prof::collector
