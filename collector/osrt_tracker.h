// OS-runtime calls: each OsrtCallRecord becomes one OSRT_API row, named through the function table
// the interposer and the collector share (injection/protocol/osrt_functions.h); a call that carries
// its backtrace gets it as OSRT_CALLCHAINS rows (collector/cpu_samples/osrt_backtraces.h). A record
// whose size does not match its frame counts is skipped and counted (malformed_records).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "collector/cpu_samples/osrt_backtraces.h"
#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "storage/report_writer.h"

namespace prof::collector {

class OsrtTracker {
 public:
  // `backtrace_reads`: what names the backtraces of calls (--osrt-backtrace-threshold), read while
  // the processes ran (collector/cpu_samples/drain_time_reads.h); may be null.
  OsrtTracker(storage::ReportWriter* writer, DrainTimeReads* backtrace_reads)
      : writer_(writer), backtrace_reads_(backtrace_reads) {}
  void RegisterHandlers(RecordDispatcher* dispatcher);

  uint64_t malformed_records() const { return malformed_records_; }

 private:
  void OnCall(const ProcessStream& process, const protocol::RecordHeader& record);
  // StringIds of function names, interned on first use; indexed by function id.
  storage::StringId NameId(uint16_t function_id);

  storage::ReportWriter* writer_;
  std::vector<storage::StringId> name_ids_;
  std::vector<bool> name_interned_;
  DrainTimeReads* backtrace_reads_;
  std::unique_ptr<OsrtBacktraces> backtraces_;  // made at the first call with a backtrace
  std::vector<uint64_t> stack_;                 // scratch: the record's frames
  uint64_t malformed_records_ = 0;
};

}  // namespace prof::collector
