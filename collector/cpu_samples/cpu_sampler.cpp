#include "collector/cpu_samples/cpu_sampler.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <utility>

#include "common/signals_blocked.h"

namespace prof::collector {
namespace {

// How long the sampler sleeps when nothing woke it: the kernel wakes it at half a ring, so this
// only bounds how late a quiet trickle of samples reaches the report.
constexpr int kPollTimeoutMs = 100;

}  // namespace

StatusOr<std::unique_ptr<CpuSampler>> CpuSampler::Open(pid_t held_child,
                                                       const SamplingOptions& options) {
  perf::PerfSamplingOptions perf_options;
  perf_options.frequency_hz = options.frequency_hz;
  perf_options.backtrace = options.backtrace;
  perf_options.context_switches = options.context_switches;
  PROF_ASSIGN_OR_RETURN(perf::PerfSession session,
                        perf::PerfSession::Open(held_child, perf_options));
  const int wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0) return Status::Error("cannot create the CPU sampler's wake-up descriptor");
  std::unique_ptr<CpuSampler> sampler(new CpuSampler(std::move(session), options));
  sampler->wake_fd_ = wake_fd;
  {
    // Asynchronous signals stay with the collector thread (architecture.md, "Signals").
    const ScopedSignalsBlocked blocked;
    sampler->thread_ = std::thread([raw = sampler.get()] { raw->Run(); });
  }
  pthread_setname_np(sampler->thread_.native_handle(), "prof-sampler");
  return sampler;
}

CpuSampler::CpuSampler(perf::PerfSession session, const SamplingOptions& options)
    : session_(std::move(session)), options_(options) {}

CpuSampler::~CpuSampler() {
  Stop();
  if (wake_fd_ >= 0) close(wake_fd_);
}

void CpuSampler::Stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_release);
  const uint64_t one = 1;
  (void)write(wake_fd_, &one, sizeof(one));
  thread_.join();
}

void CpuSampler::Run() {
  pollfd fds[2] = {{session_.poll_fd(), POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (!stopping_.load(std::memory_order_acquire)) {
    // Once every sampled task has exited, the events read as hung up and would wake it at once,
    // forever: then only the wake-up descriptor (or the timeout) ends the sleep.
    const bool rings_ready = poll(fds, 2, kPollTimeoutMs) > 0 && fds[0].revents != 0;
    const size_t delivered = session_.Drain(*this);
    Publish();
    if (rings_ready && delivered == 0) poll(&fds[1], 1, kPollTimeoutMs);
  }
  session_.Close(*this);
  Publish();
}

void CpuSampler::TakeReady(std::vector<ResolvedSample>* samples,
                           std::vector<ThreadSwitch>* switches) {
  samples->clear();
  switches->clear();
  const std::lock_guard<std::mutex> lock(mutex_);
  samples->swap(ready_samples_);
  switches->swap(ready_switches_);
}

void CpuSampler::Publish() {
  if (pass_samples_.empty() && pass_switches_.empty()) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (ready_samples_.empty()) {
    ready_samples_.swap(pass_samples_);
  } else {
    for (ResolvedSample& sample : pass_samples_) ready_samples_.push_back(std::move(sample));
  }
  ready_switches_.insert(ready_switches_.end(), pass_switches_.begin(), pass_switches_.end());
  pass_samples_.clear();
  pass_switches_.clear();
}

void CpuSampler::OnSample(const perf::PerfSample& sample) {
  if (!options_.samples) return;
  pass_samples_.emplace_back();
  resolver_.Resolve(sample, options_.backtrace, session_.attributes().sample_regs_user,
                    &pass_samples_.back());
}

void CpuSampler::OnSwitch(const perf::PerfSwitch& change) {
  if (!options_.context_switches || change.cpu_wide) return;
  pass_switches_.push_back({change.id.pid, change.id.tid, change.id.cpu, change.id.time_ns,
                            !change.switch_out, change.preempted});
}

void CpuSampler::OnComm(const perf::PerfComm& comm) {
  if (comm.exec) resolver_.OnExec(comm.pid);
}

void CpuSampler::OnTask(const perf::PerfTask& task) {
  // A new process (not a thread) starts with its parent's address space.
  if (!task.exit && task.pid == task.tid && task.pid != task.ppid) {
    resolver_.OnFork(task.pid, task.ppid);
  }
}

void CpuSampler::OnMmap(const perf::PerfMmap& mmap) { resolver_.OnMmap(mmap); }

void CpuSampler::OnLost(const perf::PerfLost& lost) {
  lost_samples_.fetch_add(lost.lost, std::memory_order_relaxed);
}

}  // namespace prof::collector
