// NVTX records of every traced process → NVTX_EVENTS rows, shaped the way nsys's SQLite export
// writes them (docs/nvtx.md lists each row shape and the nsys behaviour it follows).
//
// Contract:
// - One thread (the collector's) calls every method. Records of one thread of a process arrive in
//   the order that thread emitted them; records of different threads may arrive in any order.
// - Push/pop ranges (eventType 59) are matched per stream, thread and domain by the nesting level
//   the injection recorded, so a pop whose push was lost closes nothing and a lost pop leaves only
//   its own range open. Start/end ranges (60) are matched per stream by range id, whichever thread
//   ends them and whichever of the two records arrives first.
// - Memory holds only what is still open: open ranges, and range ends that arrived before their
//   start (at most kMaxEarlyEnds per stream), plus one push stack per thread and domain, kept when
//   empty so that push/pop pairs allocate nothing. Marks, domain and category rows are written at
//   once.
// - Ranges still open when their stream ends are written with a NULL end, as nsys
//   exports ranges that never ended; early ends whose start never came are dropped and counted.
// - Push/pop ranges in a library's domain (kNvtxLibraryDomain: cuBLAS, cuDNN) are that library's
//   API calls and become CUBLAS_EVENTS / CUDNN_EVENTS rows; such a range still open at process end
//   is dropped (those tables have no NULL end) and counted as unclosed. Libraries annotate nothing
//   else: other events in their domains are ignored.
// - State is kept per stream (ProcessStream::stream_id), not per pid: a process that execs streams
//   twice under one pid, and NVTX ids and levels restart with the new image.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "storage/report_writer.h"

namespace prof::collector {

// Data problems NvtxTracker met; the collector may report them with the session.
struct NvtxTrackerStats {
  uint64_t malformed_records = 0;  // shorter than their kind's struct, or an unknown NVTX kind
  uint64_t unmatched_pops = 0;     // pops and range ends that matched no open range
  uint64_t unclosed_ranges = 0;    // written with a NULL end at process end
};

class NvtxTracker {
 public:
  // Range ends kept per stream while waiting for their start record; further ones are dropped.
  static constexpr size_t kMaxEarlyEnds = 65536;

  explicit NvtxTracker(storage::ReportWriter* writer) : writer_(writer) {}

  // Routes every kNvtx* kind of `dispatcher` to OnRecord.
  void RegisterHandlers(RecordDispatcher* dispatcher);
  // Handles one complete record (header.size bytes in memory) of a kNvtx* kind.
  void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record);
  // Writes the stream's open ranges with a NULL end and forgets its state. `end_time` is unused:
  // nsys leaves the end of a never-ended range empty rather than closing it at process exit.
  void OnProcessEnd(const ProcessStream& process, int64_t end_time);

  const NvtxTrackerStats& stats() const { return stats_; }

 private:
  struct OpenPush {
    uint64_t level;
    storage::NvtxEventRow row;
  };
  struct EarlyEnd {
    int64_t end;
    int64_t end_global_tid;
  };
  struct ProcessState {
    // (tid, domain id) → the pushes still open on that thread in that domain, innermost last.
    std::map<std::pair<uint32_t, uint64_t>, std::vector<OpenPush>> push_stacks;
    std::unordered_map<uint64_t, storage::NvtxEventRow> open_ranges;  // by range id
    std::unordered_map<uint64_t, EarlyEnd> early_ends;                // by range id
    std::unordered_map<uint64_t, protocol::NvtxLibrary> library_domains;  // by domain id
  };
  using Handler = void (NvtxTracker::*)(const ProcessStream&, const protocol::RecordHeader&,
                                        ProcessState*);
  struct KindHandler {
    protocol::RecordKind kind;
    size_t fixed_size;
    Handler handler;
  };
  static const KindHandler kHandlers[];

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
  void OnPush(const ProcessStream& process, const protocol::RecordHeader& record,
              ProcessState* state);
  void OnPop(const ProcessStream& process, const protocol::RecordHeader& record,
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
