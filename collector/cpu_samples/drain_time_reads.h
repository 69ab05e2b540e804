// What the launcher must read of a process, while it runs, to name the stacks the process recorded
// of itself, read by the session's reader thread as it drains those records from the rings
// (SessionServer's RingRecordObserver), within a drain interval (10 ms) of them:
// - the CPU samples the program took of itself (the fallback sampler, when perf_event_open is
//   refused; collector/timer_sample_tracker.h): the address space (/proc/<pid>/maps) and, with
//   Python frames on, the Python stacks of the sampled threads;
// - the backtraces of OS-runtime calls (--osrt-backtrace-threshold; osrt_backtraces.h): the
//   address space, and the text (function, file, line) of each Python frame they carry, which is
//   only a code object's address and an instruction until it is read out of the process.
//
// Why not when the collector thread handles a record: that thread may be seconds behind the
// program under load (it decodes and writes every stream). By then a thread runs other code, or
// its process has exited and nothing of it can be read: a DataLoader worker's samples and blocked
// calls would lose their native names and Python frames, or be named by what ran long after.
//
// What is read is kept per stream (ProcessStream::stream_id: a process image; an exec starts
// another under the same pid, and a pid may be reused), from the stream's connection until the
// collector has handled its end (Forget):
// - Address spaces: read when the stream connects (its only record that needs one may come just
//   before the process ends, a parent's wait for its child, and the drain after that finds it
//   gone), then at most once per kMapsIntervalNs while records that need one keep coming; each
//   resolver adopts the newest (AdoptedMaps). An exited process's maps read empty until it is
//   reaped: such a read ends the stream's reads and never replaces the last one.
// - Python stacks (samples): each read kept with its time. A sample is named by the read nearest to
//   it, if that read lies within kReachNs: the first read after it normally, the last one before it
//   when the process exited before the next drain. Reads a named sample no longer needs are dropped.
// - Python frames (backtraces): each distinct (code object, instruction) of a stream is described
//   once, at the first drain that carries it (a code object freed and its address reused by another
//   within one image keeps the first text, as the backtraces' own stack ids do).
//
// OnStreamConnected, OnRingRecords and OnStreamDrained run on the reader thread; the rest on the
// collector thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/cpu_samples/sample_resolver.h"
#include "collector/python_frames/python_stack_reader.h"
#include "collector/session_server.h"
#include "collector/symbols/process_maps.h"

namespace prof::collector {

class DrainTimeReads : public RingRecordObserver {
 public:
  struct PythonStack {
    uint64_t time_ns = 0;                 // CLOCK_MONOTONIC of the read
    std::string interpreter_path;         // the process's libpython or python binary
    std::vector<PythonFrameText> frames;  // innermost first; empty: the thread ran no Python
  };

  // How often a process's address space is read again (it may load libraries).
  static constexpr uint64_t kMapsIntervalNs = 1'000'000'000;
  // How far a Python stack's read may lie from the sample it names.
  static constexpr uint64_t kReachNs = 100'000'000;
  // A thread's stack is read at most once per this long (a pass may drain its ring in pieces).
  static constexpr uint64_t kMinReadIntervalNs = 2'000'000;
  // A process whose Python interpreter cannot be found (yet) is tried again after this long.
  static constexpr uint64_t kAttachRetryNs = 50'000'000;
  // Stack reads kept per thread for samples still to be named: 10 s of a collector's lag at 100
  // reads a second.
  static constexpr size_t kMaxReadsPerThread = 1024;
  // Backtrace frames kept described at once (~100 bytes each); beyond, the collector reads the
  // code objects itself, as it did before these reads, if the process still runs.
  static constexpr size_t kMaxDescribedFrames = size_t{1} << 16;

  // `sample_python_stacks`: read the Python stacks of the threads the program sampled.
  explicit DrainTimeReads(bool sample_python_stacks)
      : sample_python_stacks_(sample_python_stacks) {}

  // The stream's address space is read now.
  void OnStreamConnected(uint64_t stream, uint32_t pid) override;
  // Reads what the CPU samples and the backtraces among `records` need.
  void OnRingRecords(uint64_t stream, uint32_t pid, const char* records, size_t size) override;
  // Nothing more is read for the stream; what was read stays until Forget.
  void OnStreamDrained(uint64_t stream) override { streams_.erase(stream); }

  // Stream `stream`'s address space as last read; null when none was.
  std::shared_ptr<const symbols::ProcessMaps> NewestMaps(uint64_t stream);
  // The Python stack read that names the sample thread `tid` of stream `stream` took at
  // `time_ns` (CLOCK_MONOTONIC), or null. A thread's samples must be asked for in time order.
  std::shared_ptr<const PythonStack> StackAt(uint64_t stream, uint32_t tid, uint64_t time_ns);
  // The text of a backtrace's Python frame of stream `stream`; false when it was not read (the
  // process was gone, or the address held no code object, when its record was drained).
  bool DescribedFrame(uint64_t stream, uint64_t code, uint64_t instruction, PythonFrameText* text);
  // The interpreter (libpython or python binary) found in stream `stream`; empty when none was.
  std::string InterpreterOf(uint64_t stream);
  // The collector has handled the stream's end: what was read of it goes.
  void Forget(uint64_t stream);

 private:
  struct Frame {
    uint64_t code;
    uint64_t instruction;
    bool operator==(const Frame& other) const {
      return code == other.code && instruction == other.instruction;
    }
  };
  struct FrameHash {
    size_t operator()(const Frame& frame) const {
      return std::hash<uint64_t>()(frame.code * 0x9e3779b97f4a7c15ULL ^ frame.instruction);
    }
  };
  // Reader thread only: a stream being read.
  struct Stream {
    uint32_t pid = 0;
    bool gone = false;  // its /proc entry went: nothing more can be read
    uint64_t maps_read_ns = 0;
    std::unique_ptr<PythonStackReader> python;
    // Until the Python stack reader attaches (the interpreter may still be starting): the last
    // address space read, and when to try again.
    std::shared_ptr<const symbols::ProcessMaps> maps_to_attach;
    uint64_t next_attach_ns = 0;
    std::unordered_map<uint32_t, uint64_t> stack_read_ns;  // by tid
    std::unordered_set<Frame, FrameHash> described;        // backtrace frames tried
  };
  // Both threads, under mutex_: what the collector takes of a stream.
  struct Reads {
    std::shared_ptr<const symbols::ProcessMaps> maps;
    std::string interpreter;
    std::unordered_map<uint32_t, std::deque<std::shared_ptr<const PythonStack>>> stacks;  // by tid
    std::unordered_map<Frame, PythonFrameText, FrameHash> frames;
  };
  // Reads the address space if due; false when the process is gone.
  bool ReadMaps(uint64_t stream, Stream* state, uint64_t now_ns);
  // The process's Python stack reader, attached at the first try that succeeds; or null.
  PythonStackReader* PythonOf(uint64_t stream, Stream* state, uint64_t now_ns);
  void ReadPythonStacks(uint64_t stream, Stream* state, uint64_t now_ns);
  void DescribeBacktraceFrames(uint64_t stream, Stream* state, uint64_t now_ns);

  const bool sample_python_stacks_;
  std::unordered_map<uint64_t, Stream> streams_;  // by stream id
  // Scratch of one OnRingRecords.
  std::vector<uint32_t> sampled_tids_;
  std::vector<Frame> backtrace_frames_;
  std::vector<PythonFrameText> read_;

  std::mutex mutex_;
  std::unordered_map<uint64_t, Reads> reads_;  // by stream id
  size_t frames_described_ = 0;                // in all of reads_
};

// What one resolver has taken of the address spaces DrainTimeReads read: each read once.
class AdoptedMaps {
 public:
  // Gives `resolver` the newest address space read of stream `stream` as process `pid`'s, unless
  // it has it already.
  void Update(DrainTimeReads* reads, uint64_t stream, uint32_t pid, SampleResolver* resolver);

 private:
  // By pid; weak, so that a stream's maps go with its reads (Forget).
  std::unordered_map<uint32_t, std::weak_ptr<const symbols::ProcessMaps>> adopted_;
};

}  // namespace prof::collector
