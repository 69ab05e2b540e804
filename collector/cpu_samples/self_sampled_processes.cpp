#include "collector/cpu_samples/self_sampled_processes.h"

namespace prof::collector {

void SelfSampledProcesses::Hello(uint64_t stream, uint32_t pid, uint64_t at_ns,
                                 bool samples_itself) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = spans_.find(pid);
  if (found != spans_.end()) {
    for (Span& span : found->second) {
      if (span.stream != stream && span.until_ns == UINT64_MAX) {
        span.until_ns = at_ns > span.since_ns ? at_ns : span.since_ns;
      }
    }
  }
  if (!samples_itself || !pids_.emplace(stream, pid).second) return;  // one span per stream
  spans_[pid].push_back({stream, at_ns, UINT64_MAX});
}

void SelfSampledProcesses::Ended(uint64_t stream, uint64_t at_ns) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto pid = pids_.find(stream);
  if (pid == pids_.end()) return;
  for (Span& span : spans_[pid->second]) {
    if (span.stream == stream && span.until_ns == UINT64_MAX) {
      span.until_ns = at_ns > span.since_ns ? at_ns : span.since_ns;
    }
  }
}

bool SelfSampledProcesses::Covers(uint32_t pid, uint64_t time_ns) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = spans_.find(pid);
  if (found == spans_.end()) return false;
  for (const Span& span : found->second) {
    if (time_ns >= span.since_ns && time_ns < span.until_ns) return true;
  }
  return false;
}

}  // namespace prof::collector
