#include "collector/capture_router.h"

#include <cstring>

namespace prof::collector {
namespace {

void Append(const protocol::RecordHeader& record, std::vector<uint64_t>* out) {
  const size_t words = (record.size + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  const size_t at = out->size();
  out->resize(at + words, 0);
  std::memcpy(out->data() + at, &record, record.size);
}

// Calls `visit` for each record stored by Append.
template <typename Visit>
void ForEachRecord(const std::vector<uint64_t>& records, Visit visit) {
  for (size_t at = 0; at < records.size();) {
    const auto* record = reinterpret_cast<const protocol::RecordHeader*>(records.data() + at);
    visit(*record);
    at += (record->size + sizeof(uint64_t) - 1) / sizeof(uint64_t);
  }
}

}  // namespace

Status CaptureRouter::OpenFirstReport() { return AddReport(0); }

Status CaptureRouter::AddReport(uint32_t index) {
  Report report;
  Status status = factory_(index, &report.path, &report.writer);
  if (!status.ok()) return status;
  report.importer =
      std::make_unique<StreamImporter>(report.writer.get(), cpu_sample_sink_, drain_time_reads_);
  Replay(report.importer.get());
  // Every counter from the report's first commit on (zeros, until the next commit counts more).
  report.importer->WriteProblemCounts();
  reports_.push_back(std::move(report));
  return Status::Ok();
}

void CaptureRouter::Replay(StreamImporter* importer) {
  for (auto& entry : streams_) {
    auto& stream = entry.second;  // not a structured binding: C++17 lambdas cannot capture those
    bool hello = true;
    ForEachRecord(stream.records, [&](const protocol::RecordHeader& record) {
      if (hello) {
        ProcessStream filled = *stream.process;  // the live stream's values are already filled
        importer->OnStreamStart(record, &filled);
        hello = false;
      } else {
        importer->OnRecord(*stream.process, record);
      }
    });
  }
}

void CaptureRouter::Refresh() {
  const uint32_t opened = control_->windows_opened.load(std::memory_order_acquire);
  // Only the newest window can still be open: windows open one at a time, in order.
  if (!windows_.empty() && windows_.back().stop_ns == 0) {
    windows_.back().stop_ns =
        protocol::WindowSlot(control_, static_cast<uint32_t>(windows_.size() - 1))
            .stop_ns.load(std::memory_order_acquire);
  }
  while (windows_.size() < opened) {
    const auto index = static_cast<uint32_t>(windows_.size());
    const protocol::CaptureWindow& slot = protocol::WindowSlot(control_, index);
    windows_.push_back({slot.start_ns.load(std::memory_order_acquire),
                        slot.stop_ns.load(std::memory_order_acquire)});
    int64_t report = 0;
    if (one_report_per_window_ && index > 0) {
      Status status = AddReport(index);
      if (!status.ok() && report_error_.ok()) report_error_ = status;
      report = status.ok() ? static_cast<int64_t>(reports_.size() - 1) : -1;
    }
    report_of_window_.push_back(report);
  }
}

int64_t CaptureRouter::WindowOf(uint64_t timestamp_ns) const {
  for (size_t i = windows_.size(); i-- > 0;) {
    const Window& window = windows_[i];
    if (window.stop_ns != 0 && timestamp_ns > window.stop_ns)
      return -1;  // after it, before the next
    if (timestamp_ns >= window.start_ns) return static_cast<int64_t>(i);
  }
  return -1;
}

Status CaptureRouter::Commit() {
  Status first = Status::Ok();
  for (Report& report : reports_) {
    report.importer->WriteProblemCounts();
    Status status = report.writer->Commit();
    if (!status.ok() && first.ok()) first = status;
  }
  return first;
}

void CaptureRouter::AbandonAll() {
  for (Report& report : reports_) report.writer->Abandon();
  reports_.clear();
}

void CaptureRouter::OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) {
  for (Report& report : reports_) report.importer->OnStreamStart(hello, process);
  StreamDefinitions& stream = streams_[process->stream_id];
  stream.process = process;
  Append(hello, &stream.records);
}

void CaptureRouter::OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) {
  switch (protocol::CaptureRoleOf(record.kind)) {
    case protocol::CaptureRole::kDefinition:
      Append(record, &streams_[process.stream_id].records);
      for (Report& report : reports_) report.importer->OnRecord(process, record);
      return;
    case protocol::CaptureRole::kStreamNotice:
      reports_.back().importer->OnRecord(process, record);
      return;
    case protocol::CaptureRole::kProgramEvent:
    case protocol::CaptureRole::kDeliveredLater:
      break;
  }
  if (Report* report = ReportAt(record.timestamp_ns)) report->importer->OnRecord(process, record);
}

CaptureRouter::Report* CaptureRouter::ReportAt(uint64_t timestamp_ns) {
  // The program may have closed or opened windows since the last look: an open window's end and
  // newer windows must be known before a record is placed (two atomic loads when nothing changed).
  if ((!windows_.empty() && windows_.back().stop_ns == 0) ||
      control_->windows_opened.load(std::memory_order_acquire) != windows_.size()) {
    Refresh();
  }
  const int64_t window = WindowOf(timestamp_ns);
  const int64_t report = window < 0 ? -1 : report_of_window_[static_cast<size_t>(window)];
  if (report < 0) {
    ++records_outside_windows_;
    return nullptr;
  }
  return &reports_[static_cast<size_t>(report)];
}

storage::ReportWriter* CaptureRouter::WriterAt(uint64_t timestamp_ns) {
  Report* report = ReportAt(timestamp_ns);
  return report == nullptr ? nullptr : report->writer.get();
}

void CaptureRouter::OnStreamEnd(const ProcessStream& process, const std::string& error) {
  for (Report& report : reports_) report.importer->OnStreamEnd(process, error);
  // Every record of the stream has been handled: what prof-reader read to name them goes.
  if (drain_time_reads_ != nullptr) drain_time_reads_->Forget(process.stream_id);
  streams_.erase(process.stream_id);
}

void CaptureRouter::OnStreamRejected(const std::string& error) {
  reports_.front().importer->OnStreamRejected(error);
}

}  // namespace prof::collector
