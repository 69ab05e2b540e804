// Turns the records of every traced process into report rows: the StreamSink of a profiling
// session. Owns the trackers (one per record family) and the dispatch table that routes to them.
#pragma once

#include <cstdint>

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
  uint64_t unknown_records() const { return dispatcher_.unknown_records(); }
  uint64_t malformed_records() const { return dispatcher_.malformed_records(); }
  // Streams rejected at their hello or broken mid-way: their processes' records are incomplete.
  uint64_t broken_streams() const { return broken_streams_; }

 private:
  storage::ReportWriter* writer_;
  RecordDispatcher dispatcher_;
  ProcessTracker processes_;
  OsrtTracker osrt_;
  NvtxTracker nvtx_;
  uint64_t broken_streams_ = 0;
};

}  // namespace prof::collector
