// What the launcher must read of a process, while it runs, to name the stacks the process recorded
// of itself, read by the session's reader thread as it drains those records from the rings
// (SessionServer's RingRecordObserver), within a drain interval (10 ms) of them:
// - the CPU samples the program took of itself (collector/timer_sample_tracker.h) and the
//   backtraces of OS-runtime calls (--osrt-backtrace-threshold; osrt_backtraces.h): the address
//   space (/proc/<pid>/maps), and the text (function, file, line) of each Python frame they
//   carry, which the program read at the sample's or the call's instant but only as a code
//   object's address and an instruction until it is read out of the process.
//
// Why not when the collector thread handles a record: that thread may be seconds behind the
// program under load (it decodes and writes every stream). By then a thread runs other code, or
// its process has exited and nothing of it can be read: a DataLoader worker's samples and blocked
// calls would lose their native names and Python frames.
//
// What is read is kept per stream (ProcessStream::stream_id: a process image; an exec starts
// another under the same pid, and a pid may be reused), from the stream's connection until the
// collector has handled its end (Forget):
// - Address spaces: read when the stream connects (its only record that needs one may come just
//   before the process ends, a parent's wait for its child, and the drain after that finds it
//   gone), then at most once per kMapsIntervalNs while records that need one keep coming; each
//   resolver adopts the newest (AdoptedMaps). An exited process's maps read empty until it is
//   reaped: such a read ends the stream's reads and never replaces the last one.
// - Python frames: each distinct (code object, instruction) of a stream is described once, at the
//   first drain that carries it (a code object freed and its address reused by another within one
//   image keeps the first text, as the backtraces' own stack ids do).
//
// OnStreamConnected, OnRingRecords and OnStreamDrained run on the reader thread; the rest on the
// collector thread.
#pragma once

#include <cstdint>
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
  // How often a process's address space is read again (it may load libraries).
  static constexpr uint64_t kMapsIntervalNs = 1'000'000'000;
  // A process whose Python interpreter cannot be found (yet) is tried again after this long.
  static constexpr uint64_t kAttachRetryNs = 50'000'000;
  // Python frames kept described at once (~100 bytes each); beyond, the collector reads the
  // code objects itself, as it did before these reads, if the process still runs.
  static constexpr size_t kMaxDescribedFrames = size_t{1} << 16;

  // The stream's address space is read now.
  void OnStreamConnected(uint64_t stream, uint32_t pid) override;
  // Reads what the CPU samples and the backtraces among `records` need.
  void OnRingRecords(uint64_t stream, uint32_t pid, const char* records, size_t size) override;
  // Nothing more is read for the stream; what was read stays until Forget.
  void OnStreamDrained(uint64_t stream) override { streams_.erase(stream); }

  // Stream `stream`'s address space as last read; null when none was.
  std::shared_ptr<const symbols::ProcessMaps> NewestMaps(uint64_t stream);
  // The text of a Python frame (a sample's or a backtrace's) of stream `stream`; false when it was
  // not read (the process was gone, or the address held no code object, when its record was
  // drained).
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
    std::unordered_set<Frame, FrameHash> described;  // Python frames tried
  };
  // Both threads, under mutex_: what the collector takes of a stream.
  struct Reads {
    std::shared_ptr<const symbols::ProcessMaps> maps;
    std::string interpreter;
    std::unordered_map<Frame, PythonFrameText, FrameHash> frames;
  };
  // Reads the address space if due; false when the process is gone.
  bool ReadMaps(uint64_t stream, Stream* state, uint64_t now_ns);
  // The process's Python stack reader, attached at the first try that succeeds; or null.
  PythonStackReader* PythonOf(uint64_t stream, Stream* state, uint64_t now_ns);
  void DescribePythonFrames(uint64_t stream, Stream* state, uint64_t now_ns);

  std::unordered_map<uint64_t, Stream> streams_;  // by stream id
  // Scratch of one OnRingRecords.
  std::vector<Frame> python_frames_;

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
