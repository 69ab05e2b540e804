#include "collector/process_tracker.h"

#include <spdlog/spdlog.h>

#include <cstring>
#include <string_view>

#include "collector/process_death.h"
#include "collector/record_text.h"
#include "storage/global_id.h"

namespace prof::collector {

void ProcessTracker::OnHello(const protocol::RecordHeader& record, ProcessStream* process) {
  protocol::StreamHello hello;
  std::memcpy(&hello, &record, sizeof(hello));
  process->pid = hello.pid;
  process->name = std::string(TrailingText<protocol::StreamHello>(record, hello.text_length));
  auto [named_at, first_hello] =
      hello_times_.try_emplace(process->GlobalPid(), record.timestamp_ns);
  if (!first_hello) {
    if (record.timestamp_ns < named_at->second) return;
    named_at->second = record.timestamp_ns;
  }
  writer_->AddProcess(process->GlobalPid(), process->pid, process->name);
  names_[process->pid] = process->name;
  // A new life of the pid (a reused one; a fork child's exec is the same life, not yet ended).
  killed_pids_.erase(process->pid);
}

void ProcessTracker::RegisterHandlers(RecordDispatcher* dispatcher) {
  dispatcher->Register(protocol::RecordKind::kThreadName, sizeof(protocol::ThreadNameRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnThreadName(process, record);
                       });
  dispatcher->Register(protocol::RecordKind::kDroppedRecords,
                       sizeof(protocol::DroppedRecordsRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         protocol::DroppedRecordsRecord dropped;
                         std::memcpy(&dropped, &record, sizeof(dropped));
                         dropped_records_ += dropped.dropped;
                         stream_losses_[process.stream_id].dropped += dropped.dropped;
                         NoteLoss(process, "prof could not keep up");
                       });
  dispatcher->Register(protocol::RecordKind::kRecordsWithoutRing,
                       sizeof(protocol::RecordsWithoutRingRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         protocol::RecordsWithoutRingRecord lost;
                         std::memcpy(&lost, &record, sizeof(lost));
                         records_without_ring_ += lost.dropped;
                         stream_losses_[process.stream_id].without_ring += lost.dropped;
                         NoteLoss(process, kWithoutRingCause);
                       });
  dispatcher->Register(protocol::RecordKind::kNvtxRangesTooDeep,
                       sizeof(protocol::NvtxRangesTooDeepRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         protocol::NvtxRangesTooDeepRecord lost;
                         std::memcpy(&lost, &record, sizeof(lost));
                         nvtx_ranges_too_deep_ += lost.dropped;
                         stream_losses_[process.stream_id].too_deep += lost.dropped;
                         NoteLoss(process, kTooDeepCause);
                       });
  dispatcher->Register(protocol::RecordKind::kTornRecords, sizeof(protocol::TornRecordsRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         protocol::TornRecordsRecord torn;
                         std::memcpy(&torn, &record, sizeof(torn));
                         torn_records_ += torn.torn;
                         stream_losses_[process.stream_id].torn += torn.torn;
                         NoteLoss(process, "its death cut records being written");
                       });
  dispatcher->Register(protocol::RecordKind::kRingSegment, sizeof(protocol::RingSegmentRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnMissingRings(process, record);
                       });
  dispatcher->Register(protocol::RecordKind::kProcessRank, sizeof(protocol::ProcessRankRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnRank(process, record);
                       });
  dispatcher->Register(protocol::RecordKind::kProcessKilled, sizeof(protocol::ProcessKilledRecord),
                       [this](const ProcessStream& process, const protocol::RecordHeader& record) {
                         OnKilled(process, record);
                       });
  // The end of a process is the end of its stream; its exit record carries nothing more today.
  dispatcher->Register(protocol::RecordKind::kProcessExit, sizeof(protocol::ProcessExitRecord),
                       [](const ProcessStream&, const protocol::RecordHeader&) {});
}

void ProcessTracker::OnKilled(const ProcessStream& process, const protocol::RecordHeader& record) {
  protocol::ProcessKilledRecord killed;
  std::memcpy(&killed, &record, sizeof(killed));
  NoteKilled(killed.pid, {killed.signal, killed.core_dumped != 0},
             process.SessionTime(record.timestamp_ns));
}

void ProcessTracker::NoteKilled(uint32_t pid, const ProcessDeath& death, int64_t session_time_ns) {
  if (!killed_pids_.insert(pid).second) return;
  const auto name = names_.find(pid);
  killed_.push_back({pid, name != names_.end() ? name->second : std::string(), death});
  writer_->Add<storage::kDiagnosticEventTable>(
      {session_time_ns, "this process was " + DescribeDeath(death), storage::GlobalPid(pid)});
}

// A process streams again after fork+exec and repeats its rank: one row per process.
void ProcessTracker::OnRank(const ProcessStream& process, const protocol::RecordHeader& record) {
  protocol::ProcessRankRecord rank;
  std::memcpy(&rank, &record, sizeof(rank));
  if (ranked_processes_.insert(process.GlobalPid()).second) {
    writer_->Add<storage::kMpiRanksTable>({process.GlobalTid(process.pid), rank.rank});
  }
}

void ProcessTracker::OnThreadName(const ProcessStream& process,
                                  const protocol::RecordHeader& record) {
  protocol::ThreadNameRecord name;
  std::memcpy(&name, &record, sizeof(name));
  const int64_t global_tid = process.GlobalTid(name.named_tid);
  auto [named_at, first_name] = name_times_.try_emplace(global_tid, record.timestamp_ns);
  if (!first_name) {
    if (record.timestamp_ns < named_at->second) return;
    named_at->second = record.timestamp_ns;
  }
  writer_->SetThreadName(global_tid,
                         TrailingText<protocol::ThreadNameRecord>(record, name.text_length),
                         kDefaultThreadPriority);
}

void ProcessTracker::OnStreamEnd(const ProcessStream& process, const std::string& error,
                                 int64_t end_time) {
  const auto found = stream_losses_.find(process.stream_id);
  const Losses losses = found != stream_losses_.end() ? found->second : Losses{};
  if (found != stream_losses_.end()) stream_losses_.erase(found);
  if (losses.dropped > 0) {
    writer_->Add<storage::kDiagnosticEventTable>(
        {end_time,
         "prof lost " + std::to_string(losses.dropped) +
             " records of this process: its threads' rings were full "
             "(prof could not keep up)",
         process.GlobalPid()});
  }
  if (losses.without_ring > 0) {
    writer_->Add<storage::kDiagnosticEventTable>(
        {end_time,
         "prof lost " + std::to_string(losses.without_ring) +
             " records of this process: " + kWithoutRingCause,
         process.GlobalPid()});
  }
  if (losses.too_deep > 0) {
    writer_->Add<storage::kDiagnosticEventTable>(
        {end_time,
         "prof lost " + std::to_string(losses.too_deep) +
             " NVTX ranges of this process: " + kTooDeepCause,
         process.GlobalPid()});
  }
  if (losses.torn > 0) {
    writer_->Add<storage::kDiagnosticEventTable>(
        {end_time,
         "prof lost " + std::to_string(losses.torn) +
             " records of this process that were being written when it "
             "died",
         process.GlobalPid()});
  }
  if (!error.empty()) {
    writer_->Add<storage::kDiagnosticEventTable>(
        {end_time, "prof lost the rest of this process's records: " + error, process.GlobalPid()});
  }
}

// Only segments that could not be made or attached reach the trackers (the launcher's reader
// consumes the others): the threads whose records would have gone there are not traced.
void ProcessTracker::OnMissingRings(const ProcessStream& process,
                                    const protocol::RecordHeader& record) {
  protocol::RingSegmentRecord segment;
  std::memcpy(&segment, &record, sizeof(segment));
  const std::string why = segment.segment_id < 0 ? std::strerror(-segment.segment_id) : "unknown";
  ++processes_without_rings_;
  spdlog::warn("warning: process {} ({}) is not traced: no shared memory for its records ({})",
               process.pid, process.name, why);
  writer_->Add<storage::kDiagnosticEventTable>(
      {process.SessionTime(record.timestamp_ns),
       "prof could not read this process's records: no shared memory for "
       "them (" +
           why + ")",
       process.GlobalPid()});
}

void ProcessTracker::NoteLoss(const ProcessStream& process, const char* why) {
  const auto now = std::chrono::steady_clock::now();
  if (loss_noted_ && now - last_loss_note_ < kLossNoteInterval) return;
  loss_noted_ = true;
  last_loss_note_ = now;
  spdlog::warn("warning: {} events lost so far; process {} ({}): {}",
               dropped_records_ + records_without_ring_ + nvtx_ranges_too_deep_ + torn_records_,
               process.pid, process.name, why);
}

}  // namespace prof::collector
