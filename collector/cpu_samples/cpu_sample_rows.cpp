#include "collector/cpu_samples/cpu_sample_rows.h"

#include <utility>

#include "collector/cpu_samples/callchain_rows.h"
#include "collector/cpu_samples/worker_roles.h"
#include "collector/symbols/unwind_method.h"
#include "storage/global_id.h"
#include "storage/tables/host_tables.h"

namespace prof::collector {
namespace {

// ENUM_SAMPLING_THREAD_STATE and ENUM_SCHEDULING_THREAD_BLOCK ids (nsys's values).
constexpr int32_t kThreadStateInterruptible = 2;  // blocked: sleeping until something happens
constexpr int32_t kThreadBlockUnknown = 1;
constexpr int32_t kThreadBlockPreempted = 44;

void Name(storage::ReportWriter* writer, const ThreadNaming& naming) {
  const int64_t global_pid = naming.pid == naming.tid ? storage::GlobalPid(naming.pid) : 0;
  writer->SetSampledName(global_pid, naming.pid, storage::GlobalTid(naming.pid, naming.tid),
                         naming.name);
}

// Main-thread samples with Python frames after which a process that showed no worker role is
// taken as none: a fork child's first samples may still be in the fork's return path.
constexpr uint32_t kRoleSamples = 50;
constexpr uint32_t kRoleFound = UINT32_MAX;

}  // namespace

void CpuSampleRows::Write(const ResolvedSample& sample) {
  storage::ReportWriter* writer = router_->WriterAt(sample.time_ns);
  if (writer == nullptr) return;  // outside every capture window
  const int64_t id = next_id_++;
  storage::CpuSampleRow row;
  row.id = id;
  row.start = static_cast<int64_t>(sample.time_ns - session_start_ns_);
  row.cpu = static_cast<int32_t>(sample.cpu);
  row.thread_state = storage::kThreadStateRunning;
  row.global_tid = storage::GlobalTid(sample.pid, sample.tid);
  writer->Add<storage::kCompositeEventsTable>(row);
  WriteCallchain<storage::kSamplingCallchainsTable>(writer, id, sample.frames);
}

void CpuSampleRows::Write(const ThreadSwitch& change) {
  storage::ReportWriter* writer = router_->WriterAt(change.time_ns);
  if (writer == nullptr) return;
  storage::SchedEventRow row;
  row.start = static_cast<int64_t>(change.time_ns - session_start_ns_);
  row.cpu = static_cast<int32_t>(change.cpu);
  row.is_sched_in = change.switched_in ? 1 : 0;
  row.global_tid = storage::GlobalTid(change.pid, change.tid);
  if (change.switched_in) {
    row.thread_state = storage::kThreadStateRunning;
  } else {
    // The kernel says only whether the thread was preempted (still runnable) or blocked.
    row.thread_state = change.preempted ? storage::kThreadStateRunning : kThreadStateInterruptible;
    row.thread_block = change.preempted ? kThreadBlockPreempted : kThreadBlockUnknown;
  }
  writer->Add<storage::kSchedEventsTable>(row);
}

void CpuSampleRows::Write(const ThreadNaming& naming) {
  std::vector<CaptureRouter::Report>& reports = router_->reports();
  for (size_t i = 0; i < reports_named_ && i < reports.size(); ++i) {
    Name(reports[i].writer.get(), naming);
  }
  names_.push_back(naming);
}

void CpuSampleRows::Import(CpuSampler* sampler) {
  // Reports of windows opened since the last look get the names known so far.
  std::vector<CaptureRouter::Report>& reports = router_->reports();
  for (; reports_named_ < reports.size(); ++reports_named_) {
    storage::ReportWriter* writer = reports[reports_named_].writer.get();
    for (const ThreadNaming& naming : names_) Name(writer, naming);
    for (const ThreadNaming& role : roles_) {
      writer->AddProcess(storage::GlobalPid(role.pid), role.pid, role.name);
    }
  }
  sampler->TakeReady(&ready_);
  for (const ThreadNaming& naming : ready_.names) Write(naming);
  for (const ResolvedSample& sample : ready_.samples) {
    if (self_sampled_ == nullptr || !self_sampled_->Covers(sample.pid, sample.time_ns)) {
      Write(sample);
    }
  }
  for (const ThreadSwitch& change : ready_.switches) Write(change);
}

void CpuSampleRows::NameRole(uint32_t pid, std::string_view role) {
  std::vector<CaptureRouter::Report>& reports = router_->reports();
  for (size_t i = 0; i < reports_named_ && i < reports.size(); ++i) {
    reports[i].writer->AddProcess(storage::GlobalPid(pid), pid, role);
  }
  roles_.push_back({pid, pid, std::string(role)});
}

void TimerSampleRows::OnCpuSample(const RawCpuSample& sample) {
  resolved_.pid = sample.pid;
  resolved_.tid = sample.tid;
  resolved_.cpu = sample.cpu == UINT32_MAX ? 0 : sample.cpu;
  resolved_.time_ns = sample.time_ns;
  adopted_maps_.Update(reads_, sample.stream, sample.pid, &resolver_);
  if (sample.stack_size != 0) {
    resolver_.ResolveStackCopy(sample.pid, sample.registers, sample.stack, sample.stack_size,
                               sample.ips, sample.ip_count, &resolved_);
  } else {
    resolver_.ResolveChain(sample.pid, sample.ips, sample.ip_count,
                           static_cast<int32_t>(symbols::UnwindMethod::kFramePointer), &resolved_);
  }
  python_frames_.Splice(sample.stream, sample.pid, sample.python_pairs, sample.python_count,
                        resolver_, &resolved_.frames);
  for (uint32_t period = 0; period < sample.periods; ++period) rows_->Write(resolved_);
  if (sample.tid == sample.pid && sample.python_count != 0) {
    uint32_t& looks = role_looks_[sample.pid];
    if (looks < kRoleSamples) {
      const std::string_view role = WorkerRoleOf(resolved_.frames);
      if (!role.empty()) {
        rows_->NameRole(sample.pid, role);
        looks = kRoleFound;
      } else {
        ++looks;
      }
    }
  }
}

}  // namespace prof::collector
