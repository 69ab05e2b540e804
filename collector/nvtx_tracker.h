// NVTX records of every traced process → NVTX_EVENTS rows, shaped the way nsys's SQLite export
// writes them (docs/nvtx.md lists each row shape and the nsys behaviour it follows).
//
// Contract:
// - One thread (the collector's) calls every method. Records of one thread of a process arrive in
//   the order that thread emitted them; records of different threads may arrive in any order.
// - Push/pop ranges (eventType 59) arrive as one record each (kNvtxPushPopRange), so they are
//   written as they come: kept or lost whole, never mispaired. Start/end ranges (60) are matched
//   per stream by range id, whichever thread ends them and whichever of the two records arrives
//   first.
// - Memory holds only what is still open: start/end ranges, and range ends that arrived before
//   their start (at most kMaxEarlyEnds per stream). Marks, domain and category rows are written
//   at once.
// - Ranges that never ended are written with a NULL end, as nsys exports them: start/end ranges
//   still open when their stream ends, push/pop ranges open at a normal exit. A push/pop range
//   open when its process died ends at the death, its endGlobalTid the process's (tid 0).
//   Early ends whose start never came are dropped and counted.
// - Push/pop ranges in a library's domain (kNvtxLibraryDomain: cuBLAS, cuDNN) are that library's
//   API calls and become CUBLAS_EVENTS / CUDNN_EVENTS rows; such a range still open at process end
//   is dropped (those tables have no NULL end) and counted as unclosed. Libraries annotate nothing
//   else: other events in their domains are ignored.
// - State is kept per stream (ProcessStream::stream_id), not per pid: a process that execs streams
//   twice under one pid, and NVTX ids and levels restart with the new image.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "storage/report_writer.h"

namespace prof::collector {

// Data problems NvtxTracker met; the collector may report them with the session.
struct NvtxTrackerStats {
  uint64_t malformed_records = 0;      // values prof cannot read (library, range ending)
  uint64_t unmatched_range_ends = 0;   // range ends that matched no open range
  uint64_t unclosed_ranges = 0;        // written with a NULL end at process end
  uint64_t ranges_ended_by_death = 0;  // push/pop ranges open when their process died
};

class NvtxTracker {
 public:
  // Range ends kept per stream while waiting for their start record; further ones are dropped.
  static constexpr size_t kMaxEarlyEnds = 65536;

  explicit NvtxTracker(storage::ReportWriter* writer) : writer_(writer) {}

  // Registers the handler of every kNvtx* kind with `dispatcher`.
  void RegisterHandlers(RecordDispatcher* dispatcher);
  // Writes the stream's open ranges with a NULL end and forgets its state. `end_time` is unused:
  // nsys leaves the end of a never-ended range empty rather than closing it at process exit.
  void OnProcessEnd(const ProcessStream& process, int64_t end_time);

  const NvtxTrackerStats& stats() const { return stats_; }

 private:
  struct EarlyEnd {
    int64_t end;
    int64_t end_global_tid;
  };
  struct ProcessState {
    std::unordered_map<uint64_t, storage::NvtxEventRow> open_ranges;      // by range id
    std::unordered_map<uint64_t, EarlyEnd> early_ends;                    // by range id
    std::unordered_map<uint64_t, protocol::NvtxLibrary> library_domains;  // by domain id
  };
  using Handler = void (NvtxTracker::*)(const ProcessStream&, const protocol::RecordHeader&,
                                        ProcessState*);

  void OnDomainCreate(const ProcessStream& process, const protocol::RecordHeader& record,
                      ProcessState* state);
  void OnLibraryDomain(const ProcessStream& process, const protocol::RecordHeader& record,
                       ProcessState* state);
  void OnDomainDestroy(const ProcessStream& process, const protocol::RecordHeader& record,
                       ProcessState* state);
  void OnStringRegister(const ProcessStream& process, const protocol::RecordHeader& record,
                        ProcessState* state);
  void OnCategoryName(const ProcessStream& process, const protocol::RecordHeader& record,
                      ProcessState* state);
  void OnMark(const ProcessStream& process, const protocol::RecordHeader& record,
              ProcessState* state);
  void OnPushPopRange(const ProcessStream& process, const protocol::RecordHeader& record,
                      ProcessState* state);
  void OnRangeStart(const ProcessStream& process, const protocol::RecordHeader& record,
                    ProcessState* state);
  void OnRangeEnd(const ProcessStream& process, const protocol::RecordHeader& record,
                  ProcessState* state);

  // The row an event record describes, without end (push, start, mark).
  storage::NvtxEventRow EventRow(const ProcessStream& process, const protocol::RecordHeader& record,
                                 int32_t event_type);
  // Counts a range that never ended; an NVTX one is written with a NULL end, a library call
  // dropped.
  void WriteUnclosed(protocol::NvtxLibrary library, const storage::NvtxEventRow& row);
  // The library whose calls `domain_id` annotates, kNone for an ordinary domain.
  static protocol::NvtxLibrary LibraryOf(const ProcessState& state, uint64_t domain_id);
  void WriteLibraryCall(protocol::NvtxLibrary library, const storage::NvtxEventRow& range);

  storage::ReportWriter* writer_;
  std::unordered_map<uint64_t, ProcessState> processes_;  // by stream id
  NvtxTrackerStats stats_;
};

}  // namespace prof::collector
