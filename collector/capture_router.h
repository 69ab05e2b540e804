// Routes the record streams of a session into reports by capture window: the StreamSink of a
// profiling session, in front of one StreamImporter per report.
//
// Contract (record roles from injection/protocol/capture_control.h):
// - Timed records (program events, GPU activity) go to the report of the window holding their
//   timestamp; those outside every window are counted and dropped.
// - Definitions (hello, thread names, NVTX domains and strings, CUDA names, devices, streams) go to
//   every report and are kept per live stream, so a report created for a later window gets them
//   too: its rows can be named even when their names were defined before its window.
// - Stream notices (drop counts, process exit) go to the newest report.
// One report in all, unless one_report_per_window (--capture-range-end=repeat): then window N
// (0-based) has report N, created when the window is first seen. Single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/sample_sink.h"
#include "collector/session_server.h"
#include "collector/stream_importer.h"
#include "common/status.h"
#include "injection/protocol/capture_control.h"
#include "storage/report_writer.h"

namespace prof::collector {

class CaptureRouter : public StreamSink {
 public:
  // Creates the writer of report `index`, naming it in *path.
  using ReportFactory = std::function<Status(uint32_t index, std::string* path,
                                             std::unique_ptr<storage::ReportWriter>* writer)>;
  struct Report {
    std::string path;
    std::unique_ptr<storage::ReportWriter> writer;
    std::unique_ptr<StreamImporter> importer;
  };
  // A capture window as the launcher last read it from the page; stop_ns 0 while open.
  struct Window {
    uint64_t start_ns = 0;
    uint64_t stop_ns = 0;
  };

  CaptureRouter(protocol::CaptureControl* control, bool one_report_per_window,
                ReportFactory factory)
      : control_(control),
        one_report_per_window_(one_report_per_window),
        factory_(std::move(factory)) {}

  // Where the samples the program takes of itself go (null: counted only); before the first report.
  void SetCpuSampleSink(CpuSampleSink* sink) { cpu_sample_sink_ = sink; }
  // What names the backtraces of OS-runtime calls, read as prof-reader drained them (null: they
  // are named from what the collector can still read), released per stream at the stream's end;
  // before the first report.
  void SetDrainTimeReads(DrainTimeReads* reads) { drain_time_reads_ = reads; }
  // Creates report 0, before the program runs, so that a bad report name fails early.
  Status OpenFirstReport();
  // Reads the windows opened or closed since the last call and creates the reports they need.
  void Refresh();
  // Writes every report's data problem counts if they changed, and commits its open transaction;
  // returns the first failure.
  Status Commit();
  // Closes every report without writing it.
  void AbandonAll();

  std::vector<Report>& reports() { return reports_; }
  const std::vector<Window>& windows() const { return windows_; }
  // The first failure creating a later window's report (its records are dropped).
  const Status& report_error() const { return report_error_; }
  uint64_t records_outside_windows() const { return records_outside_windows_; }

  // The report of the window holding `timestamp_ns` (CLOCK_MONOTONIC), for rows the launcher
  // makes itself (CPU samples, thread switches); null outside every window, counted as a record
  // outside the windows.
  storage::ReportWriter* WriterAt(uint64_t timestamp_ns);

  void OnStreamStart(const protocol::RecordHeader& hello, ProcessStream* process) override;
  void OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) override;
  void OnStreamEnd(const ProcessStream& process, const std::string& error) override;
  void OnStreamRejected(const std::string& error) override;

 private:
  // A live stream's hello and definition records, 8-byte aligned back to back.
  struct StreamDefinitions {
    ProcessStream* process = nullptr;
    std::vector<uint64_t> records;
  };

  Status AddReport(uint32_t index);
  void Replay(StreamImporter* importer);
  // The window holding `timestamp_ns`, or -1.
  int64_t WindowOf(uint64_t timestamp_ns) const;
  // The report of the window holding a timed record's timestamp; null outside every window.
  Report* ReportAt(uint64_t timestamp_ns);

  protocol::CaptureControl* control_;
  const bool one_report_per_window_;
  ReportFactory factory_;
  CpuSampleSink* cpu_sample_sink_ = nullptr;
  DrainTimeReads* drain_time_reads_ = nullptr;
  std::vector<Report> reports_;
  std::vector<Window> windows_;
  std::vector<int64_t> report_of_window_;                    // -1: its report could not be created
  std::unordered_map<uint64_t, StreamDefinitions> streams_;  // by stream id
  Status report_error_ = Status::Ok();
  uint64_t records_outside_windows_ = 0;
};

}  // namespace prof::collector
