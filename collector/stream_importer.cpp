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

uint64_t StreamImporter::malformed_records() const {
  return dispatcher_.malformed_records() + nvtx_.stats().malformed_records +
         cuda_.stats().malformed_records;
}

void StreamImporter::WriteDataProblems(int64_t time) {
  const NvtxTrackerStats& nvtx = nvtx_.stats();
  const CudaTrackerStats& cuda = cuda_.stats();
  const struct {
    uint64_t count;
    const char* what;
  } problems[] = {
      {dispatcher_.unknown_records(), "records of kinds this prof does not know were skipped"},
      {dispatcher_.malformed_records(), "records shorter than their kind's layout were skipped"},
      {nvtx.malformed_records, "NVTX records with values prof cannot read were skipped"},
      {nvtx.unmatched_range_ends, "NVTX range ends matched no range start and were skipped"},
      {cuda.malformed_records, "CUDA records shorter than their kind's layout were skipped"},
      {cuda.unnamed_api_calls, "CUDA API calls have no name (their name never arrived)"},
      {cuda.unnamed_kernels, "CUDA kernels have no name (their name never arrived)"},
      {cuda.unmatched_graph_traces,
       "CUDA graph launches never met their launch call (graphExecId is the graph's id)"},
      {cuda.malformed_python_stacks, "Python stacks of CUDA calls could not be read whole"},
  };
  for (const auto& problem : problems) {
    if (problem.count == 0) continue;
    writer_->Add<storage::kDiagnosticEventTable>(
        {time, std::to_string(problem.count) + " " + problem.what, std::nullopt});
  }
}

void StreamImporter::OnStreamRejected(const std::string& error) {
  ++broken_streams_;
  spdlog::warn("warning: ignored a connection: {}", error);
}

}  // namespace prof::collector
