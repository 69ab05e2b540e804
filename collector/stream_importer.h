// Turns the records of every traced process into report rows: the StreamSink of a profiling
// session. Owns the trackers (one per record family) and the dispatch table that routes to them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/cuda_tracker.h"
#include "collector/data_problems.h"
#include "collector/nvtx_tracker.h"
#include "collector/osrt_tracker.h"
#include "collector/process_tracker.h"
#include "collector/record_dispatcher.h"
#include "collector/sample_sink.h"
#include "collector/session_server.h"
#include "collector/timer_sample_tracker.h"
#include "storage/report_writer.h"

namespace prof::collector {

class StreamImporter : public StreamSink {
 public:
  // `cpu_samples`: where the program's own CPU samples go (kCpuSample); null: only counted.
  // `drain_time_reads`: what prof-reader read of the processes to name the backtraces of their
  // OS-runtime calls (collector/cpu_samples/drain_time_reads.h); may be null.
  explicit StreamImporter(storage::ReportWriter* writer, CpuSampleSink* cpu_samples = nullptr,
                          DrainTimeReads* drain_time_reads = nullptr);

  void OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) override;
  void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) override;
  void OnStreamEnd(const ProcessStream& process, const std::string& error) override;
  void OnStreamRejected(const std::string& error) override;

  // What went wrong with the data so far, counted by the dispatcher and the trackers.
  DataProblemCounts DataProblems() const;
  // CPU samples the kernel dropped (the launcher samples; no stream carries them).
  // The CPU sampler's losses: samples the kernel dropped, and records of its rings it dropped.
  void CountLostCpuSamples(uint64_t samples, uint64_t ring_records) {
    lost_cpu_samples_ += samples;
    lost_perf_records_ += ring_records;
  }
  // GPU metric samples the hardware dropped (the launcher samples them too).
  void CountLostGpuMetricSamples(uint64_t count) { lost_gpu_metric_samples_ += count; }
  // A sampled GPU's TARGET_INFO_GPU row, unless a traced process described it (CudaTracker).
  void DescribeGpu(const protocol::CudaDeviceRecord& device, std::string_view name) {
    cuda_.DescribeGpu(device, name);
  }
  // Writes every counter into PROF_STATS (replacing the rows of the last write) when they changed
  // since: at each commit, so that a report cut short by prof's death has them.
  void WriteProblemCounts();
  // The final counts, and at `time` a DIAGNOSTIC_EVENT row for the session for each non-zero one
  // that is not informative and has no per-process rows.
  void WriteDataProblems(int64_t time);
  // CUDA: set-up failures to print once, and GPU records CUPTI dropped.
  const std::vector<std::string>& cuda_warnings() const { return cuda_.cuda_warnings(); }
  bool cuda_tracing_started() const { return cuda_.tracing_started(); }
  uint64_t python_stacks() const { return cuda_.python_stacks(); }
  const std::vector<std::string>& python_warnings() const { return cuda_.python_warnings(); }
  const ProcessTracker& processes() const { return processes_; }
  ProcessTracker& processes() { return processes_; }

 private:
  storage::ReportWriter* writer_;
  std::optional<DataProblemCounts> written_counts_;  // PROF_STATS as last written
  RecordDispatcher dispatcher_;
  ProcessTracker processes_;
  OsrtTracker osrt_;
  NvtxTracker nvtx_;
  CudaTracker cuda_;
  TimerSampleTracker timer_samples_;
  uint64_t broken_streams_ = 0;
  uint64_t lost_cpu_samples_ = 0;
  uint64_t lost_perf_records_ = 0;
  uint64_t lost_gpu_metric_samples_ = 0;
};

}  // namespace prof::collector
