// Writes resolved CPU samples and thread switches into the report of the capture window that holds
// each (CaptureRouter::WriterAt): COMPOSITE_EVENTS and SAMPLING_CALLCHAINS, SCHED_EVENTS; names
// the threads no stream names. Collector thread only.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/capture_router.h"
#include "collector/cpu_samples/cpu_sampler.h"
#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/cpu_samples/python_pair_frames.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "collector/cpu_samples/self_sampled_processes.h"
#include "collector/sample_sink.h"

namespace prof::collector {

class CpuSampleRows {
 public:
  // `session_start_ns`: CLOCK_MONOTONIC at session start (report times are ns since then).
  // `self_sampled` (may be null): the kernel's samples of these processes are not written, since
  // they took their own (TimerSampleRows writes those).
  CpuSampleRows(CaptureRouter* router, uint64_t session_start_ns,
                const SelfSampledProcesses* self_sampled = nullptr)
      : router_(router), session_start_ns_(session_start_ns), self_sampled_(self_sampled) {}

  void Write(const ResolvedSample& sample);
  void Write(const ThreadSwitch& change);
  // Names the thread in every report (and in reports of later windows) unless a stream did.
  void Write(const ThreadNaming& naming);
  // Writes what `sampler` resolved since the last call.
  void Import(CpuSampler* sampler);
  // Names process `pid` by its worker role (worker_roles.h) in every report and in reports of later
  // windows; replaces the name its stream gave.
  void NameRole(uint32_t pid, std::string_view role);

  uint64_t samples_written() const { return next_id_ - 1; }

 private:
  CaptureRouter* router_;
  uint64_t session_start_ns_;
  const SelfSampledProcesses* self_sampled_;
  int64_t next_id_ = 1;              // COMPOSITE_EVENTS.id: unique across the session's reports
  SamplerOutput ready_;              // scratch for Import
  std::vector<ThreadNaming> names_;  // every name so far, for reports created later
  std::vector<ThreadNaming> roles_;  // every process role so far (tid = pid), likewise
  size_t reports_named_ = 0;         // reports that have every name in names_ and roles_
};

// The samples the program took of itself (libprof_core's sampler: every process when
// perf_event_open is refused, and processes that run CPython; collector/timer_sample_tracker.h):
// resolved here, on the collector thread, with the address spaces and code objects that the
// reader thread read when it drained them (`reads`, collector/cpu_samples/drain_time_reads.h),
// their Python frames (read in the program at the sample's instant) spliced in, and written as the
// kernel's are.
class TimerSampleRows : public CpuSampleSink {
 public:
  TimerSampleRows(CpuSampleRows* rows, DrainTimeReads* reads)
      : rows_(rows), reads_(reads), python_frames_(reads) {}
  void OnCpuSample(const RawCpuSample& sample) override;

 private:
  CpuSampleRows* rows_;
  DrainTimeReads* reads_;
  SampleResolver resolver_;
  AdoptedMaps adopted_maps_;
  PythonPairFrames python_frames_;
  ResolvedSample resolved_;  // reused
  // Processes whose worker role was found, or that showed none in kRoleSamples samples of their
  // main thread (count per pid).
  std::unordered_map<uint32_t, uint32_t> role_looks_;
};

}  // namespace prof::collector
