// Samples the program's process tree with perf_event_open (collector/perf_events/) on a thread of
// its own, `prof-sampler`: it drains the kernel's rings, resolves each sample's stack
// (SampleResolver) and queues the samples and thread switches for the collector thread, which
// writes them into the reports (CpuSampleRows). Samples go into the report as they arrive, like
// every other record.
//
// Lifecycle: Open() on the held child (forked, before exec: sampling starts at its exec), from the
// launcher's thread before it lowers its priority, so that `prof-sampler` keeps prof's: a sampler
// that falls behind makes the kernel drop samples (counted, lost_samples()). Stop() once the
// program's tree has ended: the events are disabled, the rest drained, the thread joined.
// TakeReady() from the collector thread at any time.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/python_frame_merger.h"
#include "collector/cpu_samples/sample_resolver.h"
#include "collector/cpu_samples/sampling_options.h"
#include "collector/cpu_samples/self_sampled_processes.h"
#include "collector/perf_events/perf_session.h"
#include "common/status.h"

namespace prof::collector {

// A thread switched onto (in) or off a CPU; off: preempted (still runnable) or blocked.
struct ThreadSwitch {
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t cpu = 0;
  uint64_t time_ns = 0;  // CLOCK_MONOTONIC
  bool switched_in = false;
  bool preempted = false;
};

// The kernel's name of a thread (its comm: inherited at clone, changed by exec and
// prctl(PR_SET_NAME)), for the threads and processes that no stream names.
struct ThreadNaming {
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string name;
};

// What the sampler resolved since the collector thread last looked.
struct SamplerOutput {
  std::vector<ResolvedSample> samples;
  std::vector<ThreadSwitch> switches;
  std::vector<ThreadNaming> names;

  bool empty() const { return samples.empty() && switches.empty() && names.empty(); }
  void clear() {
    samples.clear();
    switches.clear();
    names.clear();
  }
};

class CpuSampler : private perf::PerfRecordSink {
 public:
  // `self_sampled` (may be null; must outlive the sampler): the processes whose samples the kernel
  // takes in vain, since they take their own.
  static StatusOr<std::unique_ptr<CpuSampler>> Open(pid_t held_child,
                                                    const SamplingOptions& options,
                                                    const SelfSampledProcesses* self_sampled);
  ~CpuSampler() override;
  CpuSampler(const CpuSampler&) = delete;
  CpuSampler& operator=(const CpuSampler&) = delete;

  // What the kernel refused and sampling does without (e.g. context switches), one line each.
  const std::vector<std::string>& notes() const { return session_.notes(); }

  void Stop();

  // Moves what was resolved so far into *out (cleared first).
  void TakeReady(SamplerOutput* out);

  // Records the kernel dropped because a ring was full (perf's LOST records): samples, context
  // switches, thread and mapping events alike, which the kernel does not tell apart.
  uint64_t lost_records() const { return lost_records_.load(std::memory_order_relaxed); }
  // Samples the kernel dropped before they reached a ring (perf's LOST_SAMPLES records).
  uint64_t lost_samples() const { return lost_samples_.load(std::memory_order_relaxed); }

 private:
  CpuSampler(perf::PerfSession session, const SamplingOptions& options,
             const SelfSampledProcesses* self_sampled);
  void Run();

  void OnSample(const perf::PerfSample& sample) override;
  void OnSwitch(const perf::PerfSwitch& change) override;
  void OnComm(const perf::PerfComm& comm) override;
  void OnTask(const perf::PerfTask& task) override;
  void OnMmap(const perf::PerfMmap& mmap) override;
  void OnLost(const perf::PerfLost& lost) override;
  // Hands what this drain pass resolved to the collector thread.
  void Publish();

  perf::PerfSession session_;
  SamplingOptions options_;
  const SelfSampledProcesses* self_sampled_;
  // prof-sampler only:
  SampleResolver resolver_;
  PythonFrameMerger python_frames_;
  std::unordered_map<uint32_t, std::string> thread_names_;  // by tid
  SamplerOutput pass_;                                      // this drain pass's

  std::atomic<bool> stopping_{false};
  int wake_fd_ = -1;  // an eventfd: Stop() wakes the sampler's poll with it
  std::mutex mutex_;
  SamplerOutput ready_;  // guarded by mutex_
  std::atomic<uint64_t> lost_records_{0};
  std::atomic<uint64_t> lost_samples_{0};
  std::thread thread_;
};

}  // namespace prof::collector
