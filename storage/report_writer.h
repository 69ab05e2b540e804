// Writes one prof report: an SQLite file in the nsys export schema (docs/report-schema.md).
//
// Contract:
// - Create() writes to `<final_path>.partial-<pid>` (a temporary name in the same directory) and
//   Finish() renames it into place once complete, so a crashed or killed prof never leaves a
//   half-written report under the final name (its partial file is a report as of its last commit:
//   write-ahead log). When writing fails (a full disk), Finish() puts what was committed under the
//   final name instead and says so. Abandon() (or destruction without Finish) deletes it. The writer may own the claim on the final name (report_name_claim.h): it ends the
//   claim once the report is renamed over the placeholder, or abandoned.
// - Rows are buffered in one open transaction, committed every kCommitRows rows or when Commit() is
//   called (the collector commits about once a second), so the report is written while the program
//   runs and memory stays bounded.
// - SQLite runs on threads of the report's own (batch_writer.h, chunk_pipeline.h): Add* encode the
//   row into a batch and return; full batches and commits queue up, bounded, and Add* wait when
//   the queue is full. Encoder threads put chunks of batches into in-memory databases; one thread
//   copies them into the report, in order. Errors of those threads reach Commit() a few batches
//   late and Finish() for sure.
// - Tables are created on first use, as nsys's export creates only the tables that hold data; the
//   ENUM_* tables a filled table references are written with it. Indexes are built in Finish().
// - Timestamps are ns since session start; ids use nsys's GlobalId encoding (global_id.h).
// - Not thread-safe: one thread (the collector's) calls every method; only the writer's own
//   thread crosses into storage.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "storage/report_name_claim.h"
#include "storage/report_tables.h"

namespace prof::storage {

// Everything prof records about its own session, into the PROF_SESSION table (name, value).
struct SessionInfo {
  std::string prof_version;
  std::string command_line;   // the profiled program and its arguments, shell-quoted
  std::string trace_options;  // e.g. "cuda,nvtx,osrt"
  int64_t osrt_threshold_ns = 0;
  std::string environment_set;  // variables prof set in the child, "A=B" joined by '\n'
  int64_t exit_status = 0;      // the program's exit code, or 128+N when signal N killed it
  int64_t duration_ns = 0;      // program start to exit
  // The data problems' counters PROF_SESSION keeps (collector/data_problems.h: SessionCounters).
  std::vector<std::pair<std::string, std::string>> data_problems;
  int64_t utc_epoch_ns_at_start = 0;
};

// The directory of a report path ("." for a bare file name): where the report's temporary files
// go, so that they use the disk the report is written to (/tmp may be memory).
std::string ReportDirectory(const std::string& report_path);

// Where a prof run of process `pid` writes the report `final_path` until it is finished: a
// SQLite file in write-ahead-log mode (with `<partial>-wal` beside it), which a killed prof
// leaves behind as a readable report of what it committed.
std::string PartialReportPath(const std::string& final_path, pid_t pid);
// The partial reports under `final_path`'s name that are there now, sorted (not their -wal files).
std::vector<std::string> PartialReportsOf(const std::string& final_path);

// Rows of one event table (TableSpec::event_noun) a writer was given.
struct EventCount {
  std::string noun;  // "NVTX events"
  uint64_t rows = 0;
};

class ReportWriter {
 public:
  // Opens `<final_path>.partial-<pid>` and writes the schema metadata (META_DATA_EXPORT).
  static StatusOr<std::unique_ptr<ReportWriter>> Create(const std::string& final_path);
  // The same, for the holder of `claim` on the final name (null: no claim, as with -f).
  static StatusOr<std::unique_ptr<ReportWriter>> Create(std::unique_ptr<ReportNameClaim> claim,
                                                        const std::string& final_path);
  ~ReportWriter();
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Returns the StringIds id of `value`, adding it on first use.
  StringId InternString(std::string_view value);

  // Adds a row to table `kTable` (storage/report_tables.h), created with its first row, e.g.
  // Add<kNvtxEventsTable>(row). The writer fills StringIds (InternString), PROCESSES (AddProcess),
  // ThreadNames (SetThreadName), PROF_SESSION, META_DATA_EXPORT and
  // TARGET_INFO_SESSION_START_TIME (Create, Finish) itself. The collector deduplicates
  // TARGET_INFO_* rows.
  template <const auto& kTable>
  void Add(const TableRow<kTable>& row) {
    constexpr size_t kIndex = ReportTables::IndexOf<kTable>();
    static_assert(kIndex < ReportTables::kCount, "the table is not listed in ReportTables");
    AddRow(kIndex, &BindTableRow<kTable>, &row);
  }
  // Writes `rows` as the whole of `kTable`, a table rewritten whole (TableSpec::rewritten_whole):
  // they replace the rows of its last write once committed.
  template <const auto& kTable>
  void Rewrite(const std::vector<TableRow<kTable>>& rows) {
    static_assert(kTable.rewritten_whole, "the table is not rewritten whole");
    constexpr size_t kIndex = ReportTables::IndexOf<kTable>();
    BeginRewrite(kIndex);
    for (const TableRow<kTable>& row : rows) AddRow(kIndex, &BindTableRow<kTable>, &row);
  }
  // Adds or replaces the name of a process (last name wins, e.g. after exec); written at the next
  // commit.
  void AddProcess(int64_t global_pid, uint32_t pid, std::string_view name);
  // Adds or replaces the name of a thread (last name wins, like nsys's ThreadNames); written at
  // the next commit.
  void SetThreadName(int64_t global_tid, std::string_view name, int32_t priority);
  // The kernel's name of a thread prof sampled (and, with a non-zero global_pid, of its process),
  // for the threads and processes no stream names: a name from a stream (SetThreadName,
  // AddProcess) wins, before or after; a later kernel name replaces an earlier one.
  void SetSampledName(int64_t global_pid, uint32_t pid, int64_t global_tid, std::string_view name);

  // Writes the processes' and threads' names if they changed, commits the open transaction and
  // starts a new one.
  Status Commit();
  // Rows that outran SQLite and wait in the spill file: Finish() inserts them first.
  uint64_t RowsWaitingOnDisk();
  // The rows given so far to each event table that has some, in ReportTables order.
  std::vector<EventCount> EventCounts() const;
  // Writes TARGET_INFO_SESSION_START_TIME, PROF_SESSION, PROCESSES, ThreadNames and indexes,
  // commits, closes and renames the file into place. On failure what was committed until then is
  // renamed into place all the same (with its -wal file when it could not be copied in) and the
  // Status names the first error (an Add* failure included: Add* keep the first error and ignore
  // later rows, and Commit() reports it too) and says that the report keeps what fit.
  Status Finish(const SessionInfo& session);
  // Deletes the temporary file.
  void Abandon();

 private:
  class Impl;
  // Adds `row` to KnownTables()[table_index], bound by `bind`.
  void AddRow(size_t table_index, RowBindFunction bind, const void* row);
  void BeginRewrite(size_t table_index);
  explicit ReportWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace prof::storage
