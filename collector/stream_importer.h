// Turns the records of every traced process into report rows: the StreamSink of a profiling
// session. Owns the trackers (one per record family) and the dispatch table that routes to them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/cuda_tracker.h"
#include "collector/nvtx_tracker.h"
#include "collector/osrt_tracker.h"
#include "collector/process_tracker.h"
#include "collector/record_dispatcher.h"
#include "collector/session_server.h"
#include "storage/report_writer.h"

namespace prof::collector {

class StreamImporter : public StreamSink {
 public:
  explicit StreamImporter(storage::ReportWriter* writer);

  void OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) override;
  void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) override;
  void OnStreamEnd(const ProcessStream& process, const std::string& error) override;
  void OnStreamRejected(const std::string& error) override;

  uint64_t dropped_records() const { return processes_.dropped_records(); }
  uint64_t torn_records() const { return processes_.torn_records(); }
  uint64_t unknown_records() const { return dispatcher_.unknown_records(); }
  // Records shorter than their kind's struct, and those a tracker found unreadable or rejected.
  uint64_t malformed_records() const;
  // Writes a DIAGNOSTIC_EVENT row (no process: the session's) at `time` for each kind of record
  // the trackers could not use: what the counts of PROF_SESSION add up.
  void WriteDataProblems(int64_t time);
  // Streams rejected at their hello or broken mid-way, and processes whose rings could not be
  // read: their processes' records are incomplete.
  uint64_t broken_streams() const { return broken_streams_ + processes_.processes_without_rings(); }
  // CUDA: set-up failures to print once, and GPU records CUPTI dropped.
  const std::vector<std::string>& cuda_warnings() const { return cuda_.cuda_warnings(); }
  bool cuda_tracing_started() const { return cuda_.tracing_started(); }
  uint64_t cuda_dropped_records() const { return cuda_.dropped_records(); }
  uint64_t python_stacks() const { return cuda_.python_stacks(); }
  const std::vector<std::string>& python_warnings() const { return cuda_.python_warnings(); }

 private:
  storage::ReportWriter* writer_;
  RecordDispatcher dispatcher_;
  ProcessTracker processes_;
  OsrtTracker osrt_;
  NvtxTracker nvtx_;
  CudaTracker cuda_;
  uint64_t broken_streams_ = 0;
};

}  // namespace prof::collector
