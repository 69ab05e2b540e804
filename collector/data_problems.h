// Everything that can go wrong with a session's data, declared once: the name of its counter in
// the report's PROF_STATS table, its severity and what it means. A report holds every counter
// (zeros included); the non-zero ones that are not merely informative also get a DIAGNOSTIC_EVENT
// row (per process where the tracker knows the process, else for the session), and `prof stats`
// prints them before its reports.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "storage/report_metadata.h"

namespace prof::collector {

// Perfetto's stats severities: data lost, data prof could not use, or a fact worth knowing.
enum class ProblemSeverity { kDataLoss, kError, kInfo };

// Where the DIAGNOSTIC_EVENT rows of a counter come from: the tracker writes one per affected
// process as it happens, or the session writes one with the total at its end.
enum class ProblemScope { kPerProcess, kSession };

// X(id, name, severity, scope, session, meaning): `session` is the PROF_SESSION counter the count
// adds to ("" for none: PROF_SESSION keeps the six counters older readers know, PROF_STATS has all);
// `meaning` reads after the count ("3 records ...").
#define PROF_DATA_PROBLEMS(X)                                                                     \
  X(kDroppedRecords, "dropped_records", kDataLoss, kPerProcess, "dropped_records",                \
    "records were dropped in the program: its threads' rings were full (prof could not keep up)") \
  X(kRecordsWithoutRing, "records_without_ring", kDataLoss, kPerProcess, "",                      \
    "records were dropped in the program: their threads could get no ring (1,024 threads "        \
    "recording at once, or no shared memory left for a new segment: kernel.shmmni, shmall)")      \
  X(kNvtxRangesTooDeep, "nvtx_ranges_too_deep", kDataLoss, kPerProcess, "",                       \
    "NVTX push/pop ranges were dropped in the program: nested deeper than their thread's 64 KiB " \
    "of open ranges hold (~700 levels)")                                                          \
  X(kTornRecords, "torn_records", kDataLoss, kPerProcess, "torn_records",                         \
    "records were cut by the death of the process writing them")                                  \
  X(kBrokenStreams, "broken_streams", kDataLoss, kPerProcess, "broken_streams",                   \
    "process streams were rejected or cut short, or a process's records could not be read")       \
  X(kCudaDroppedRecords, "cuda_dropped_records", kDataLoss, kSession, "cuda_dropped_records",     \
    "GPU activity records were dropped by CUPTI (no buffer available)")                           \
  X(kCudaKernelsLost, "cuda_kernels_lost", kDataLoss, kSession, "",                               \
    "CUDA kernel launches never got their kernel record (the process ended before CUPTI "         \
    "delivered it, CUPTI dropped it, or the kernel ran after the capture ended)")                 \
  X(kCpuSamplesLost, "cpu_samples_lost", kDataLoss, kSession, "",                                 \
    "CPU samples were dropped by the kernel before they reached prof's sampling buffers")         \
  X(kPerfRecordsLost, "perf_records_lost", kDataLoss, kSession, "",                               \
    "records of the kernel's sampling buffers (CPU samples, context switches, thread and "        \
    "mapping events) were dropped: the buffers were full (prof could not keep up)")               \
  X(kGpuMetricSamplesLost, "gpu_metric_samples_lost", kDataLoss, kSession, "",                    \
    "GPU metric samples were dropped by the GPU: its sampling buffer was full")                   \
  X(kUnknownRecords, "unknown_records", kError, kSession, "unknown_records",                      \
    "records of kinds this prof does not know were skipped")                                      \
  X(kMalformedRecords, "malformed_records", kError, kSession, "malformed_records",                \
    "records shorter than their kind's layout were skipped")                                      \
  X(kNvtxUnreadableRecords, "nvtx_unreadable_records", kError, kSession, "malformed_records",     \
    "NVTX records with values prof cannot read were skipped")                                     \
  X(kNvtxUnmatchedRangeEnds, "nvtx_unmatched_range_ends", kError, kSession, "",                   \
    "NVTX range ends matched no range start and were skipped")                                    \
  X(kCudaUnreadableRecords, "cuda_unreadable_records", kError, kSession, "malformed_records",     \
    "CUDA records with values prof cannot read were skipped")                                     \
  X(kCudaUnnamedApiCalls, "cuda_unnamed_api_calls", kError, kSession, "",                         \
    "CUDA API calls have no name (their name never arrived)")                                     \
  X(kCudaUnnamedKernels, "cuda_unnamed_kernels", kError, kSession, "",                            \
    "CUDA kernels have no name (their name never arrived)")                                       \
  X(kCudaUnmatchedGraphTraces, "cuda_unmatched_graph_traces", kError, kSession, "",               \
    "CUDA graph launches never met their launch call (graphExecId is the graph's id)")            \
  X(kPythonStacksUnreadable, "python_stacks_unreadable", kError, kSession, "",                    \
    "Python stacks of CUDA calls could not be read whole")                                        \
  X(kNvtxUnclosedRanges, "nvtx_unclosed_ranges", kInfo, kSession, "",                             \
    "NVTX ranges were still open when their process ended (written with a NULL end)")             \
  X(kNvtxRangesEndedByDeath, "nvtx_ranges_ended_by_death", kInfo, kSession, "",                   \
    "NVTX push/pop ranges were open when their process died (they end at its death)")

enum class DataProblem : size_t {
#define PROF_DATA_PROBLEM_ID(id, name, severity, scope, session, meaning) id,
  PROF_DATA_PROBLEMS(PROF_DATA_PROBLEM_ID)
#undef PROF_DATA_PROBLEM_ID
};

struct DataProblemSpec {
  DataProblem id;
  std::string_view name;
  ProblemSeverity severity;
  ProblemScope scope;
  std::string_view session_counter;  // PROF_SESSION's name it adds to, or empty
  std::string_view meaning;
};

inline constexpr DataProblemSpec kDataProblems[] = {
#define PROF_DATA_PROBLEM_SPEC(id, name, severity, scope, session, meaning) \
  {DataProblem::id, name, ProblemSeverity::severity, ProblemScope::scope, session, meaning},
    PROF_DATA_PROBLEMS(PROF_DATA_PROBLEM_SPEC)
#undef PROF_DATA_PROBLEM_SPEC
};
inline constexpr size_t kDataProblemCount = std::size(kDataProblems);

// "data_loss", "error", "info": PROF_STATS.severity.
std::string_view SeverityName(ProblemSeverity severity);

// The count of every declared problem of one session.
class DataProblemCounts {
 public:
  uint64_t& operator[](DataProblem problem) { return counts_[static_cast<size_t>(problem)]; }
  uint64_t operator[](DataProblem problem) const { return counts_[static_cast<size_t>(problem)]; }
  bool operator==(const DataProblemCounts& other) const { return counts_ == other.counts_; }

 private:
  std::array<uint64_t, kDataProblemCount> counts_{};
};

// PROF_SESSION's counters (each the sum of the problems whose `session` names it), in the order
// their names first appear above.
storage::NameValues SessionCounters(const DataProblemCounts& counts);

}  // namespace prof::collector
