// The Python stacks of another process's threads, read from outside it (CPU samples' Python frames,
// issue 26), the way out-of-process samplers do: the launcher copies CPython's structs out of the
// running program with process_vm_readv (RemoteMemory) and follows them: _PyRuntime → interpreter
// → its thread states (the one whose native_thread_id is the thread) → current frame → previous
// frames; each frame's code object and instruction. Nothing runs inside the program and it is not
// stopped. CPython 3.10 to 3.13 with a GIL; offsets from injection/protocol/cpython_layout.h,
// shared with the in-process reader of --python-backtrace=cuda.
//
// Torn reads: the thread keeps running while its stack is read, so a read can mix two moments. A
// frame whose code object is not of PyCode_Type, an instruction outside its code, a chain longer
// than kMaxFrames, an unreadable frame, or a current frame that changed between the walk's start
// and end make the read start again (kAttempts in all); after the last attempt ReadStack returns
// the frames of it that passed the checks, innermost first (stats().torn_stacks counts those).
//
// Caches: a code object's name, file and line table are read once per code address (checked
// against the code object's fields on every hit, so a freed and reused address reads afresh); a
// thread's thread state is remembered and checked on each read; a thread that runs no Python
// costs one walk of the thread list, then 3 reads per ReadStack until the list's head changes.
//
// Not thread-safe: one reader per process, used from one thread (the launcher's sampler thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/python_frames/python_runtime.h"
#include "collector/python_frames/remote_memory.h"
#include "collector/symbols/process_maps.h"
#include "common/status.h"

namespace prof::collector {

// One Python frame, innermost first: the qualified function name (3.11+: "Worker.run"; 3.10: the
// plain name "run"), the code's file as CPython has it, and the line it runs.
struct PythonFrameText {
  std::string function;
  std::string file;
  int line = 0;
};

class PythonStackReader {
 public:
  static constexpr size_t kMaxFrames = 256;
  static constexpr int kAttempts = 4;

  struct Stats {
    uint64_t stacks = 0;        // ReadStack calls that succeeded
    uint64_t retries = 0;       // attempts started again after a torn read
    uint64_t torn_stacks = 0;   // stacks returned after kAttempts torn reads (what validated)
    uint64_t code_objects = 0;  // code objects whose text was read (cache misses)
    uint64_t thread_walks = 0;  // walks of the interpreter's thread list
  };

  // Finds the interpreter of process `pid` (CPython 3.10-3.13 with a GIL, libpython shared or a
  // python binary with the interpreter linked in) from the ELF symbols of its mapped files
  // (python_runtime.h) and checks that the layout fits what the process holds. Fails with one line:
  // "not a Python process", "CPython 3.9 is not supported", "process_vm_readv of pid 12: Operation
  // not permitted (errno 1)", ...
  static StatusOr<std::unique_ptr<PythonStackReader>> Attach(int pid,
                                                             const symbols::ProcessMaps& maps);

  // The Python stack thread `tid` of the process runs now, innermost first; empty when the thread
  // runs no Python (no thread state, or no frame). Fails only when the process is gone or its
  // memory cannot be read at all (the reason, with errno's text).
  Status ReadStack(int tid, std::vector<PythonFrameText>* frames);

  // Names a frame the program read of itself (an OS-runtime call's backtrace,
  // injection/osrt/call_backtrace.h): its code object's address and its instruction, as this
  // reader's own (an address in 3.11+, f_lasti in 3.10). Fails when the process is gone or the
  // address holds no code object (any more), or the instruction lies outside it.
  Status DescribeFrame(uint64_t code, uint64_t instruction, PythonFrameText* frame);

  const std::string& version() const { return runtime_.version; }  // "3.12.1"
  const std::string& interpreter_path() const { return runtime_.path; }
  const Stats& stats() const { return stats_; }

 private:
  enum class Outcome { kDone, kTorn, kFailed };
  struct RawFrame {
    uint64_t code;
    uint64_t instruction;  // an address (3.11+) or f_lasti (3.10)
  };
  struct CodeText {
    // The code object's fields the text was read from: a hit must still have them.
    uint64_t filename = 0;
    uint64_t name = 0;
    uint64_t line_table = 0;
    int first_line = 0;
    std::string function;
    std::string file;
    std::string table;  // co_linetable's bytes
  };

  PythonStackReader(int pid, PythonRuntime runtime) : memory_(pid), runtime_(std::move(runtime)) {}

  Status CheckLayout();
  Outcome TryRead(int tid, std::vector<PythonFrameText>* frames);
  // The thread state of `tid` (0: none), its bytes up to the frame pointer in `state`.
  Outcome FindThread(int tid, uint64_t* address, std::vector<char>* state);
  Outcome MatchesThread(int tid, const std::vector<char>& state, bool* matches);
  Outcome CurrentFrame(const std::vector<char>& state, uint64_t* frame);
  Outcome WalkFrames(uint64_t frame);
  Outcome Describe(std::vector<PythonFrameText>* frames);
  const CodeText* Text(uint64_t code, const char* header);
  bool ReadString(uint64_t object, std::string* text);
  bool ReadBytes(uint64_t object, std::string* bytes);
  bool FindPthreadTidOffset(const std::vector<uint64_t>& pthreads);
  size_t ThreadStateReadSize() const;

  RemoteMemory memory_;
  PythonRuntime runtime_;
  Stats stats_;
  std::unordered_map<int, uint64_t> thread_states_;    // tid -> PyThreadState address
  std::unordered_map<uint64_t, CodeText> code_texts_;  // code object address -> its text
  // Threads no thread state belonged to at the last walk, while the list's head stays the same.
  std::unordered_set<int> absent_tids_;
  uint64_t absent_head_ = 0;
  uint64_t absent_head_identity_ = 0;
  int64_t pthread_tid_offset_ = -1;  // 3.10: struct pthread's tid, once found
  // Scratch space of one read, kept to spare allocations.
  std::vector<RawFrame> raw_frames_;
  std::vector<PythonFrameText> described_;  // DescribeFrame's
  std::vector<char> code_headers_;
  std::vector<char> thread_state_;
};

}  // namespace prof::collector
