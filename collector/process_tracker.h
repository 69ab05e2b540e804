// Processes and threads of the session: PROCESSES rows from each stream's hello, ThreadNames from
// thread-name records, MPI_RANKS from rank records, the processes a signal killed (a
// DIAGNOSTIC_EVENT row each, once), and the records each process lost (dropped under
// back-pressure, cut by its death), totalled for PROF_SESSION and written per process as
// DIAGNOSTIC_EVENT rows when its stream ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/process_death.h"
#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "storage/report_writer.h"

namespace prof::collector {

class ProcessTracker {
 public:
  explicit ProcessTracker(storage::ReportWriter* writer) : writer_(writer) {}

  // Fills `process` from its stream's first record (a validated StreamHello) and records it.
  void OnHello(const protocol::RecordHeader& record, ProcessStream* process);
  void RegisterHandlers(RecordDispatcher* dispatcher);
  // Writes the stream's data problems (DIAGNOSTIC_EVENT) at `end_time`, `error` saying how the
  // stream broke when it did, and forgets its counts.
  void OnStreamEnd(const ProcessStream& process, const std::string& error, int64_t end_time);

  // A process a signal killed, in the order they were learned, each once.
  struct Killed {
    uint32_t pid = 0;
    std::string name;  // from its hello; empty when it never streamed
    ProcessDeath death;
  };
  const std::vector<Killed>& killed() const { return killed_; }
  // Process `pid` was killed as `death` says, learned at `time_ns` (CLOCK_MONOTONIC): one
  // DIAGNOSTIC_EVENT row, the first time a process is told (its parent, the launcher's reader and,
  // for the program, the launcher that reaps it may all tell).
  void NoteKilled(uint32_t pid, const ProcessDeath& death, int64_t session_time_ns);

  uint64_t dropped_records() const { return dropped_records_; }
  uint64_t records_without_ring() const { return records_without_ring_; }
  uint64_t nvtx_ranges_too_deep() const { return nvtx_ranges_too_deep_; }
  uint64_t torn_records() const { return torn_records_; }
  // Processes (or threads of them) whose records could not be read: no shared memory for them.
  uint64_t processes_without_rings() const { return processes_without_rings_; }

 private:
  void OnThreadName(const ProcessStream& process, const protocol::RecordHeader& record);
  // Says that records are being lost at once, and then at most every kLossNoteInterval, so that
  // a user watching a long run learns it while it runs, not only at its end.
  void NoteLoss(const ProcessStream& process, const char* why);
  void OnMissingRings(const ProcessStream& process, const protocol::RecordHeader& record);
  void OnRank(const ProcessStream& process, const protocol::RecordHeader& record);
  // A signal killed a process: its parent reaped it, or its stream ended so.
  void OnKilled(const ProcessStream& process, const protocol::RecordHeader& record);

  // nsys writes the scheduling priority of each thread; prof reports the default nice-0 value.
  static constexpr int32_t kDefaultThreadPriority = 20;

  storage::ReportWriter* writer_;
  uint64_t dropped_records_ = 0;
  uint64_t records_without_ring_ = 0;
  uint64_t nvtx_ranges_too_deep_ = 0;
  uint64_t torn_records_ = 0;
  uint64_t processes_without_rings_ = 0;
  struct Losses {
    uint64_t dropped = 0;
    uint64_t without_ring = 0;
    uint64_t too_deep = 0;
    uint64_t torn = 0;
  };
  std::unordered_map<uint64_t, Losses> stream_losses_;  // by stream id, until the stream ends
  static constexpr std::chrono::seconds kLossNoteInterval{2};
  static constexpr const char* kWithoutRingCause =
      "its threads could get no ring (1,024 threads recording at once, or no shared memory left "
      "for a new segment: kernel.shmmni, shmall)";
  static constexpr const char* kTooDeepCause =
      "push/pop ranges nested deeper than their thread's 64 KiB of open ranges hold (~700 levels "
      "of 20-character names)";
  bool loss_noted_ = false;
  std::chrono::steady_clock::time_point last_loss_note_;
  // When each thread got its current name. Threads' records arrive in no fixed order across
  // threads, so a name set on thread A by thread B may arrive before A's own first-seen name: the
  // later timestamp wins, not the later arrival.
  std::unordered_map<int64_t, uint64_t> name_times_;
  // When the hello that named each process (globalPid) was sent. A fork child that execs streams
  // twice under one pid, and the two connections may be read in either order: the later hello
  // (after the exec) names the process.
  std::unordered_map<int64_t, uint64_t> hello_times_;
  std::unordered_set<int64_t> ranked_processes_;     // globalPids with an MPI_RANKS row
  std::unordered_map<uint32_t, std::string> names_;  // the latest hello's name, by pid
  std::vector<Killed> killed_;
  std::unordered_set<uint32_t> killed_pids_;
};

}  // namespace prof::collector
