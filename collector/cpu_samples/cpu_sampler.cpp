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
// only bounds how late a quiet trickle of samples reaches the report. With Python frames, which
// are read when the sampler handles a sample, it also bounds how late they are read.
constexpr int kPollTimeoutMs = 100;
constexpr int kPythonPollTimeoutMs = 10;

}  // namespace

StatusOr<std::unique_ptr<CpuSampler>> CpuSampler::Open(pid_t held_child,
                                                       const SamplingOptions& options,
                                                       const SelfSampledProcesses* self_sampled) {
  perf::PerfSamplingOptions perf_options;
  perf_options.frequency_hz = options.frequency_hz;
  perf_options.backtrace = options.backtrace;
  perf_options.context_switches = options.context_switches;
  PROF_ASSIGN_OR_RETURN(perf::PerfSession session,
                        perf::PerfSession::Open(held_child, perf_options));
  const int wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0) return Status::Error("cannot create the CPU sampler's wake-up descriptor");
  std::unique_ptr<CpuSampler> sampler(new CpuSampler(std::move(session), options, self_sampled));
  sampler->wake_fd_ = wake_fd;
  {
    // Asynchronous signals stay with the collector thread (architecture.md, "Signals").
    const ScopedSignalsBlocked blocked;
    sampler->thread_ = std::thread([raw = sampler.get()] { raw->Run(); });
  }
  pthread_setname_np(sampler->thread_.native_handle(), "prof-sampler");
  return sampler;
}

CpuSampler::CpuSampler(perf::PerfSession session, const SamplingOptions& options,
                       const SelfSampledProcesses* self_sampled)
    : session_(std::move(session)), options_(options), self_sampled_(self_sampled) {}

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
  const int timeout_ms = options_.python_frames ? kPythonPollTimeoutMs : kPollTimeoutMs;
  while (!stopping_.load(std::memory_order_acquire)) {
    // Once every sampled task has exited, the events read as hung up and would wake it at once,
    // forever: then only the wake-up descriptor (or the timeout) ends the sleep.
    const bool rings_ready = poll(fds, 2, timeout_ms) > 0 && fds[0].revents != 0;
    python_frames_.NextPass();
    const size_t delivered = session_.Drain(*this);
    Publish();
    if (rings_ready && delivered == 0) poll(&fds[1], 1, timeout_ms);
  }
  session_.Close(*this);
  Publish();
}

void CpuSampler::TakeReady(SamplerOutput* out) {
  out->clear();
  const std::lock_guard<std::mutex> lock(mutex_);
  std::swap(*out, ready_);
}

void CpuSampler::Publish() {
  if (pass_.empty()) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (ready_.empty()) {
    std::swap(ready_, pass_);
    return;
  }
  for (ResolvedSample& sample : pass_.samples) ready_.samples.push_back(std::move(sample));
  ready_.switches.insert(ready_.switches.end(), pass_.switches.begin(), pass_.switches.end());
  for (ThreadNaming& naming : pass_.names) ready_.names.push_back(std::move(naming));
  pass_.clear();
}

void CpuSampler::OnSample(const perf::PerfSample& sample) {
  if (!options_.samples) return;
  // The process took this moment's sample itself, with its Python frames of the instant: nothing
  // to resolve (CpuSampleRows drops what passes here before the process's hello was read).
  if (self_sampled_ != nullptr && self_sampled_->Covers(sample.id.pid, sample.id.time_ns)) return;
  pass_.samples.emplace_back();
  ResolvedSample& resolved = pass_.samples.back();
  resolver_.Resolve(sample, options_.backtrace, session_.attributes().sample_regs_user, &resolved);
  if (options_.python_frames) {
    if (const symbols::ProcessMaps* maps = resolver_.MapsOf(resolved.pid)) {
      python_frames_.Merge(*maps, &resolved);
    }
  }
}

void CpuSampler::OnSwitch(const perf::PerfSwitch& change) {
  if (!options_.context_switches || change.cpu_wide) return;
  pass_.switches.push_back({change.id.pid, change.id.tid, change.id.cpu, change.id.time_ns,
                            !change.switch_out, change.preempted});
}

void CpuSampler::OnComm(const perf::PerfComm& comm) {
  if (comm.exec) resolver_.OnExec(comm.pid);
  std::string& name = thread_names_[comm.tid];
  if (name == comm.name) return;
  name = std::string(comm.name);
  pass_.names.push_back({comm.pid, comm.tid, name});
}

void CpuSampler::OnTask(const perf::PerfTask& task) {
  if (task.exit) {
    thread_names_.erase(task.tid);
    return;
  }
  // A new process (not a thread) starts with its parent's address space.
  if (task.pid == task.tid && task.pid != task.ppid) resolver_.OnFork(task.pid, task.ppid);
  // A new thread or process has its creator's name until it changes it.
  const auto creator = thread_names_.find(task.ptid);
  if (creator == thread_names_.end()) return;
  thread_names_[task.tid] = creator->second;
  pass_.names.push_back({task.pid, task.tid, creator->second});
}

void CpuSampler::OnMmap(const perf::PerfMmap& mmap) { resolver_.OnMmap(mmap); }

void CpuSampler::OnLost(const perf::PerfLost& lost) {
  (lost.samples ? lost_samples_ : lost_records_).fetch_add(lost.lost, std::memory_order_relaxed);
}

}  // namespace prof::collector
