// The Python stacks that name the CPU samples a program took of itself (the fallback sampler,
// when perf_event_open is refused; collector/timer_sample_tracker.h), read from outside the
// program by the session's reader thread as it drains the samples from the rings: within a drain
// interval (10 ms) of each sample, as prof-sampler reads them for the kernel's samples.
//
// Why not when the collector thread writes a sample: that thread may be seconds behind the
// program under load (it decodes and writes every stream), and by then the thread runs other
// code, or its process has exited and its memory can no longer be read: a DataLoader worker's
// last samples would lose their Python frames, or be named by what ran long after.
//
// Each read is kept with its time. A sample is named by the read nearest to it, if that read lies
// within kReachNs: the first read after it normally, the last before it when the process exited
// before the next read. Reads a named sample no longer needs are dropped.
//
// OnRingRecords runs on the reader thread, StackAt on the collector thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/python_frames/python_stack_reader.h"
#include "collector/session_server.h"

namespace prof::collector {

class PythonStackSnapshots : public RingRecordObserver {
 public:
  struct Snapshot {
    uint64_t time_ns = 0;                 // CLOCK_MONOTONIC of the read
    std::string interpreter_path;         // the process's libpython or python binary
    std::vector<PythonFrameText> frames;  // innermost first; empty: the thread ran no Python
  };

  // How far a read may lie from the sample it names.
  static constexpr uint64_t kReachNs = 100'000'000;
  // A thread is read at most once per this long (a pass may drain its ring in several pieces).
  static constexpr uint64_t kMinReadIntervalNs = 2'000'000;
  // A process that runs no readable Python is looked at again after this long (it may exec one).
  static constexpr uint64_t kAttachRetryNs = 500'000'000;
  // Reads kept per thread for samples still to be named: 10 s of a collector's lag at 100 reads/s.
  static constexpr size_t kMaxReadsPerThread = 1024;

  // Reads the Python stack of each thread that has a CPU sample among `records`.
  void OnRingRecords(uint32_t pid, const char* records, size_t size) override;

  // The read that names the sample thread `tid` of process `pid` took at `time_ns`
  // (CLOCK_MONOTONIC), or null. A thread's samples must be asked for in time order.
  std::shared_ptr<const Snapshot> StackAt(uint32_t pid, uint32_t tid, uint64_t time_ns);

 private:
  // Reader thread only.
  struct Process {
    std::unique_ptr<PythonStackReader> reader;
    uint64_t next_attach_ns = 0;
    std::unordered_map<uint32_t, uint64_t> last_read_ns;  // by tid
  };
  PythonStackReader* ReaderOf(uint32_t pid, uint64_t now_ns);

  std::unordered_map<uint32_t, Process> processes_;  // by pid
  std::vector<uint32_t> sampled_tids_;               // scratch
  std::vector<PythonFrameText> read_;                // scratch

  // Both threads.
  static uint64_t Key(uint32_t pid, uint32_t tid) { return uint64_t{pid} << 32 | tid; }
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::deque<std::shared_ptr<const Snapshot>>> reads_;  // by Key
};

}  // namespace prof::collector
