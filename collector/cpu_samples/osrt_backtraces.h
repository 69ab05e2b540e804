// The backtraces of OS-runtime calls (--osrt-backtrace-threshold): names each distinct stack of a
// process once and writes it as OSRT_CALLCHAINS rows, returning the id OSRT_API.callchainId
// carries.
//
// The program sends raw stacks (injection/osrt/call_backtrace.h): return addresses, innermost
// first, starting at the traced function's call site, then the thread's Python frames as (code
// object, instruction) pairs read at the same instant. What names them was read out of the
// process while it ran, when prof-reader drained the records (DrainTimeReads): native frames are
// named with that address space as the program's own CPU samples are (SampleResolver); prof's own
// interposer frames are dropped; Python frames as PythonPairFrames says.
//
// Collector thread only.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/cpu_samples/python_pair_frames.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "storage/report_writer.h"

namespace prof::collector {

struct RawBacktrace {
  uint64_t stream = 0;  // ProcessStream::stream_id: the process image that made the call
  uint32_t pid = 0;
  const uint64_t* ips = nullptr;  // return addresses, innermost first
  size_t ip_count = 0;
  const uint64_t* python_pairs = nullptr;  // (code object, instruction), innermost first
  size_t python_count = 0;
};

class OsrtBacktraces {
 public:
  // `reads`: what prof-reader read of the processes as it drained their records; may be null.
  OsrtBacktraces(storage::ReportWriter* writer, DrainTimeReads* reads)
      : writer_(writer), reads_(reads), python_frames_(reads) {}

  // OSRT_CALLCHAINS.id of the stack, its rows written the first time the process shows it.
  int64_t CallchainOf(const RawBacktrace& backtrace);

 private:
  // Distinct stacks remembered per session; further ones are written each time they occur.
  static constexpr size_t kMaxRemembered = size_t{1} << 16;

  void Name(const RawBacktrace& backtrace);

  storage::ReportWriter* writer_;
  DrainTimeReads* reads_;
  SampleResolver resolver_;
  AdoptedMaps adopted_maps_;
  PythonPairFrames python_frames_;
  std::unordered_map<std::string, int64_t> ids_;  // stream + the raw stack's bytes -> id
  int64_t next_id_ = 1;
  ResolvedSample named_;  // scratch: the stack being named
};

}  // namespace prof::collector
