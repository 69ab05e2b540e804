// OS-runtime calls: each OsrtCallRecord becomes one OSRT_API row, named through the function table
// the interposer and the collector share (injection/protocol/osrt_functions.h).
#pragma once

#include <vector>

#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "storage/report_writer.h"

namespace prof::collector {

class OsrtTracker {
 public:
  explicit OsrtTracker(storage::ReportWriter* writer) : writer_(writer) {}
  void RegisterHandlers(RecordDispatcher* dispatcher);

 private:
  void OnCall(const ProcessStream& process, const protocol::RecordHeader& record);
  // StringIds of function names, interned on first use; indexed by function id.
  storage::StringId NameId(uint16_t function_id);

  storage::ReportWriter* writer_;
  std::vector<storage::StringId> name_ids_;
  std::vector<bool> name_interned_;
};

}  // namespace prof::collector
