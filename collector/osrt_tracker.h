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
  // `backtraces`: the program sends OS-runtime calls' backtraces (--osrt-backtrace-threshold).
  OsrtTracker(storage::ReportWriter* writer, bool backtraces)
      : writer_(writer),
        backtraces_(backtraces ? std::make_unique<OsrtBacktraces>(writer) : nullptr) {}
  void RegisterHandlers(RecordDispatcher* dispatcher);
  // A traced process started; with backtraces, its mappings are learned now.
  void OnProcessStart(uint32_t pid) {
    if (backtraces_ != nullptr) backtraces_->OnProcessStart(pid);
  }

  uint64_t malformed_records() const { return malformed_records_; }

 private:
  void OnCall(const ProcessStream& process, const protocol::RecordHeader& record);
  // StringIds of function names, interned on first use; indexed by function id.
  storage::StringId NameId(uint16_t function_id);

  storage::ReportWriter* writer_;
  std::vector<storage::StringId> name_ids_;
  std::vector<bool> name_interned_;
  std::unique_ptr<OsrtBacktraces> backtraces_;  // also made at the first call with a backtrace
  std::vector<uint64_t> stack_;                 // scratch: the record's frames
  uint64_t malformed_records_ = 0;
};

}  // namespace prof::collector
