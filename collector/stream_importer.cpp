#include "collector/stream_importer.h"

#include <spdlog/spdlog.h>

#include "injection/protocol/clock.h"

namespace prof::collector {

StreamImporter::StreamImporter(storage::ReportWriter* writer)
    : writer_(writer), processes_(writer), osrt_(writer), nvtx_(writer), cuda_(writer) {
  processes_.RegisterHandlers(&dispatcher_);
  osrt_.RegisterHandlers(&dispatcher_);
  nvtx_.RegisterHandlers(&dispatcher_);
  cuda_.RegisterHandlers(&dispatcher_);
}

void StreamImporter::OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) {
  processes_.OnHello(hello, process);
}

void StreamImporter::OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) {
  dispatcher_.Dispatch(process, record);
}

void StreamImporter::OnStreamEnd(const ProcessStream& process, const std::string& error) {
  if (!error.empty()) {
    ++broken_streams_;
    spdlog::warn("warning: events of process {} cut short: {}", process.pid, error);
  }
  const int64_t end_time = process.SessionTime(protocol::MonotonicNowNs());
  processes_.OnStreamEnd(process, error, end_time);
  nvtx_.OnProcessEnd(process, end_time);
  cuda_.OnProcessEnd(process);
}

void StreamImporter::OnStreamRejected(const std::string& error) {
  ++broken_streams_;
  spdlog::warn("warning: ignored a connection: {}", error);
}

}  // namespace prof::collector
