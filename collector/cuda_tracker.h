// CUDA records of every traced process (injection/protocol/cuda_records.h) → the CUDA tables of
// the report (CUPTI_ACTIVITY_KIND_*, TARGET_INFO_GPU, TARGET_INFO_CUDA_*), shaped the way nsys's
// SQLite export writes them; docs/cuda.md lists every column and how each CUPTI value maps onto
// nsys's ENUM_* ids.
//
// Contract:
// - One thread (the collector's) calls every method. Records of one process thread arrive in the
//   order that thread emitted them; API records and GPU records may arrive in any order relative
//   to each other, except that names (API names, kernel names) precede the records that use them
//   and a context's record precedes its synchronization records (when not, the sync row gets the
//   device of the process's only context, else device 0, and is counted).
// - State is kept per stream (ProcessStream::stream_id): CUPTI's ids restart with a new image.
// - TARGET_INFO_* rows are written once: GPUs by device id, the rest by (pid, id).
// - Graph traces wait for the CudaGraphLaunchRecord of their correlation id to learn graphExecId;
//   at most kMaxPendingGraphTraces wait per stream, and those never matched (evicted, or still
//   waiting at stream end) are written with graphExecId = graphId and counted. Launch records
//   wait the same way, bounded alike.
// - Nothing here writes logs: CUDA set-up failures are collected (cuda_warnings()) for the session
//   to print once, data problems are counted (stats()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "collector/process_stream.h"
#include "collector/record_dispatcher.h"
#include "injection/protocol/cuda_records.h"
#include "storage/report_writer.h"

namespace prof::collector {

// Data problems CudaTracker met; the collector may report them with the session.
struct CudaTrackerStats {
  uint64_t malformed_records = 0;        // values prof cannot read (graph event kind, memory op)
  uint64_t unnamed_api_calls = 0;        // API calls whose (domain, cbid) was never named
  uint64_t unnamed_kernels = 0;          // kernels whose name id was never sent
  uint64_t unmatched_graph_traces = 0;   // written with graphExecId = graphId
  uint64_t malformed_python_stacks = 0;  // stack texts that did not parse (frames before kept)
  uint64_t kernels_lost = 0;  // successful kernel launches whose kernel record never came
};

class CudaTracker {
 public:
  static constexpr size_t kMaxPendingGraphTraces = 4096;

  explicit CudaTracker(storage::ReportWriter* writer) : writer_(writer) {}

  // Registers the handler of every kCuda* kind with `dispatcher`.
  void RegisterHandlers(RecordDispatcher* dispatcher);
  // Writes the stream's graph traces still waiting for their launch, counts the launches whose
  // kernel never came, and forgets the stream's state.
  void OnProcessEnd(const ProcessStream& process);
  // The TARGET_INFO_GPU row of `device`, unless the GPU has one: from the CUDA device records of
  // the traced processes, or from GPU metrics (which describe their GPUs after those records).
  void DescribeGpu(const protocol::CudaDeviceRecord& device, std::string_view name);

  // Whether CUDA tracing started in at least one process.
  bool tracing_started() const { return tracing_started_; }
  // One line per process whose CUDA tracing could not start, e.g.
  // "process 490: CUDA not traced: libcupti not found: ...".
  const std::vector<std::string>& cuda_warnings() const { return warnings_; }
  // One line per process whose Python stacks cannot be read (--python-backtrace=cuda).
  const std::vector<std::string>& python_warnings() const { return python_warnings_; }
  // GPU activity records CUPTI dropped, summed over processes (PROF_SESSION.cuda_dropped_records).
  uint64_t dropped_records() const { return dropped_records_; }
  // CUDA_CALLCHAINS ids assigned: Python stacks seen (--python-backtrace=cuda).
  uint64_t python_stacks() const { return static_cast<uint64_t>(next_callchain_id_ - 1); }
  const CudaTrackerStats& stats() const { return stats_; }

 private:
  struct KernelNameIds {
    storage::StringId mangled;
    storage::StringId demangled;
    storage::StringId short_name;
  };
  struct StreamState {
    std::unordered_map<uint64_t, storage::StringId> api_names;  // by ApiKey(domain, cbid)
    std::unordered_map<uint64_t, KernelNameIds> kernel_names;   // by CudaStringRecord id
    // By correlation id; ids grow, so begin() is the oldest.
    std::map<uint32_t, storage::CudaGraphTraceRow> pending_graph_traces;
    std::map<uint32_t, uint32_t> unclaimed_graph_launches;  // correlation id → graph exec id
    std::unordered_map<uint32_t, int64_t> callchain_ids;  // Python stack id → CUDA_CALLCHAINS id
    // Kernel records expected and come (stats_.kernels_lost: their difference at the stream's
    // end). Counted, not matched by correlation id: a thread's launch calls and the kernels of
    // CUPTI's buffers arrive in any order relative to each other. The launch role of each named
    // function, and the threads capturing a stream (their launches run nothing).
    std::unordered_map<uint64_t, protocol::CudaLaunchRole> launch_roles;  // by ApiKey
    std::set<uint32_t> capturing_threads;
    uint64_t kernels_expected = 0;
    uint64_t kernels_came = 0;
  };
  using Handler = void (CudaTracker::*)(const ProcessStream&, const protocol::RecordHeader&,
                                        StreamState*);

  void OnInitStatus(const ProcessStream& process, const protocol::RecordHeader& record,
                    StreamState* state);
  void OnApiName(const ProcessStream& process, const protocol::RecordHeader& record,
                 StreamState* state);
  void OnApiCall(const ProcessStream& process, const protocol::RecordHeader& record,
                 StreamState* state);
  void OnApiCallWithStack(const ProcessStream& process, const protocol::RecordHeader& record,
                          StreamState* state);
  void OnPythonStack(const ProcessStream& process, const protocol::RecordHeader& record,
                     StreamState* state);
  void OnString(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnKernel(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnMemcpy(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnMemset(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnSync(const ProcessStream& process, const protocol::RecordHeader& record,
              StreamState* state);
  void OnGraphTrace(const ProcessStream& process, const protocol::RecordHeader& record,
                    StreamState* state);
  void OnGraphLaunch(const ProcessStream& process, const protocol::RecordHeader& record,
                     StreamState* state);
  void OnDevice(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnContext(const ProcessStream& process, const protocol::RecordHeader& record,
                 StreamState* state);
  void OnStream(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnEvent(const ProcessStream& process, const protocol::RecordHeader& record,
               StreamState* state);
  void OnGraphEvent(const ProcessStream& process, const protocol::RecordHeader& record,
                    StreamState* state);
  void OnMemory(const ProcessStream& process, const protocol::RecordHeader& record,
                StreamState* state);
  void OnDropped(const ProcessStream& process, const protocol::RecordHeader& record,
                 StreamState* state);

  storage::CudaApiCallRow ApiCallRow(const ProcessStream& process,
                                     const protocol::CudaApiCallRecord& call, StreamState* state);
  // The report-wide CUDA_CALLCHAINS id of a process's Python stack, assigned at first sight of the
  // stack or of a call naming it (whichever arrives first).
  int64_t CallchainId(uint32_t stack_id, StreamState* state);
  void WriteUnmatchedGraphTrace(const storage::CudaGraphTraceRow& row);
  // The kernel record a successful call expects, or the capture it begins or ends.
  void ExpectKernel(const protocol::CudaApiCallRecord& call, StreamState* state);
  void KernelCame(const protocol::CudaKernelRecord& kernel, StreamState* state);
  void WriteStreamOnce(const storage::CudaStreamRow& row);

  storage::ReportWriter* writer_;
  std::unordered_map<uint64_t, StreamState> streams_;         // by ProcessStream::stream_id
  std::set<uint32_t> written_gpus_;                           // device ids
  std::set<std::pair<uint32_t, uint32_t>> written_devices_;   // (pid, device id)
  std::set<std::pair<uint32_t, uint32_t>> written_contexts_;  // (pid, context id)
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> written_streams_;  // (pid, context, stream)
  bool tracing_started_ = false;
  int64_t next_callchain_id_ = 1;
  std::vector<std::string> warnings_;
  std::vector<std::string> python_warnings_;
  uint64_t dropped_records_ = 0;
  CudaTrackerStats stats_;
};

}  // namespace prof::collector
