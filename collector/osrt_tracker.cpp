#include "collector/osrt_tracker.h"

#include <cstring>
#include <string>

#include "injection/protocol/osrt_functions.h"

namespace prof::collector {

void OsrtTracker::RegisterHandlers(RecordDispatcher* dispatcher) {
  dispatcher->Register(protocol::RecordKind::kOsrtCall, sizeof(protocol::OsrtCallRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnCall(process, record);
                       });
}

storage::StringId OsrtTracker::NameId(uint16_t function_id) {
  if (function_id >= name_ids_.size()) {
    name_ids_.resize(function_id + 1u);
    name_interned_.resize(function_id + 1u);
  }
  if (!name_interned_[function_id]) {
    const char* name = protocol::OsrtFunctionName(function_id);
    name_ids_[function_id] = writer_->InternString(
        name != nullptr ? std::string(name)
                        : "[unknown function " + std::to_string(function_id) + "]");
    name_interned_[function_id] = true;
  }
  return name_ids_[function_id];
}

void OsrtTracker::OnCall(const ProcessStream& process, const protocol::RecordHeader& record) {
  protocol::OsrtCallRecord call;
  std::memcpy(&call, &record, sizeof(call));
  if (!protocol::OsrtCallFramed(call)) {
    ++malformed_records_;
    return;
  }
  const size_t stack_words = call.native_frame_count + 2u * call.python_frame_count;
  storage::OsrtCallRow row;
  if (stack_words != 0) {
    // Copied out rather than read in place, which would rely on the decoder's buffer keeping
    // records 8-aligned.
    stack_.resize(stack_words);
    std::memcpy(stack_.data(), reinterpret_cast<const char*>(&record) + sizeof(call),
                stack_words * sizeof(uint64_t));
    if (backtraces_ == nullptr)
      backtraces_ = std::make_unique<OsrtBacktraces>(writer_, backtrace_reads_);
    RawBacktrace backtrace;
    backtrace.stream = process.stream_id;
    backtrace.pid = process.pid;
    backtrace.ips = stack_.data();
    backtrace.ip_count = call.native_frame_count;
    backtrace.python_pairs = stack_.data() + call.native_frame_count;
    backtrace.python_count = call.python_frame_count;
    row.callchain_id = backtraces_->CallchainOf(backtrace);
  }
  row.start = process.SessionTime(call.header.timestamp_ns);
  row.end = process.SessionTime(call.end_ns);
  row.global_tid = process.GlobalTid(call.header.tid);
  row.name_id = NameId(call.function_id);
  row.return_value = call.return_value;
  row.nesting_level = call.nesting_level;
  writer_->Add<storage::kOsrtApiTable>(row);
}

}  // namespace prof::collector
