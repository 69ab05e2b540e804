#include "collector/stream_importer.h"

#include <spdlog/spdlog.h>

#include "injection/protocol/clock.h"

namespace prof::collector {

StreamImporter::StreamImporter(storage::ReportWriter* writer, CpuSampleSink* cpu_samples,
                               DrainTimeReads* drain_time_reads)
    : writer_(writer),
      processes_(writer),
      osrt_(writer, drain_time_reads),
      nvtx_(writer),
      cuda_(writer),
      timer_samples_(cpu_samples) {
  processes_.RegisterHandlers(&dispatcher_);
  osrt_.RegisterHandlers(&dispatcher_);
  nvtx_.RegisterHandlers(&dispatcher_);
  cuda_.RegisterHandlers(&dispatcher_);
  timer_samples_.RegisterHandlers(&dispatcher_);
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

DataProblemCounts StreamImporter::DataProblems() const {
  const NvtxTrackerStats& nvtx = nvtx_.stats();
  const CudaTrackerStats& cuda = cuda_.stats();
  DataProblemCounts counts;
  counts[DataProblem::kDroppedRecords] = processes_.dropped_records();
  counts[DataProblem::kRecordsWithoutRing] = processes_.records_without_ring();
  counts[DataProblem::kNvtxRangesTooDeep] = processes_.nvtx_ranges_too_deep();
  counts[DataProblem::kTornRecords] = processes_.torn_records();
  counts[DataProblem::kBrokenStreams] = broken_streams_ + processes_.processes_without_rings();
  counts[DataProblem::kCudaDroppedRecords] = cuda_.dropped_records();
  counts[DataProblem::kCudaKernelsLost] = cuda.kernels_lost;
  counts[DataProblem::kCpuSamplesLost] = lost_cpu_samples_;
  counts[DataProblem::kPerfRecordsLost] = lost_perf_records_;
  counts[DataProblem::kGpuMetricSamplesLost] = lost_gpu_metric_samples_;
  counts[DataProblem::kUnknownRecords] = dispatcher_.unknown_records();
  // A CPU sample or an OS-runtime call whose size does not match its frame counts is malformed in
  // the same sense.
  counts[DataProblem::kMalformedRecords] = dispatcher_.malformed_records() +
                                           timer_samples_.malformed_records() +
                                           osrt_.malformed_records();
  counts[DataProblem::kNvtxUnreadableRecords] = nvtx.malformed_records;
  counts[DataProblem::kNvtxUnmatchedRangeEnds] = nvtx.unmatched_range_ends;
  counts[DataProblem::kCudaUnreadableRecords] = cuda.malformed_records;
  counts[DataProblem::kCudaUnnamedApiCalls] = cuda.unnamed_api_calls;
  counts[DataProblem::kCudaUnnamedKernels] = cuda.unnamed_kernels;
  counts[DataProblem::kCudaUnmatchedGraphTraces] = cuda.unmatched_graph_traces;
  counts[DataProblem::kPythonStacksUnreadable] = cuda.malformed_python_stacks;
  counts[DataProblem::kNvtxUnclosedRanges] = nvtx.unclosed_ranges;
  counts[DataProblem::kNvtxRangesEndedByDeath] = nvtx.ranges_ended_by_death;
  return counts;
}

void StreamImporter::WriteProblemCounts() {
  const DataProblemCounts counts = DataProblems();
  if (written_counts_.has_value() && *written_counts_ == counts) return;
  std::vector<storage::ProfStatRow> rows;
  for (const DataProblemSpec& problem : kDataProblems) {
    rows.push_back({problem.name, SeverityName(problem.severity),
                    static_cast<int64_t>(counts[problem.id]), problem.meaning});
  }
  writer_->Rewrite<storage::kProfStatsTable>(rows);
  written_counts_ = counts;
}

void StreamImporter::WriteDataProblems(int64_t time) {
  WriteProblemCounts();
  const DataProblemCounts counts = DataProblems();
  for (const DataProblemSpec& problem : kDataProblems) {
    const uint64_t count = counts[problem.id];
    if (count == 0 || problem.severity == ProblemSeverity::kInfo ||
        problem.scope == ProblemScope::kPerProcess) {
      continue;
    }
    writer_->Add<storage::kDiagnosticEventTable>(
        {time, std::to_string(count) + " " + std::string(problem.meaning), std::nullopt});
  }
}

void StreamImporter::OnStreamRejected(const std::string& error) {
  ++broken_streams_;
  spdlog::warn("warning: ignored a connection: {}", error);
}

}  // namespace prof::collector
