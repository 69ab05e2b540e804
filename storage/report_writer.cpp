#include "storage/report_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>

#include "storage/batch_writer.h"
#include "storage/chunk_pipeline.h"
#include "storage/report_metadata.h"
#include "storage/report_schema.h"
#include "storage/schema_catalog.h"
#include "storage/sqlite_database.h"
#include "storage/string_interner.h"
#include "storage/table_inserter.h"

namespace prof::storage {
namespace {

// Rows per transaction: large enough that commits cost nothing measurable, small enough that
// SQLite's page cache stays bounded. (The pipeline's writer also commits after every chunk.)
constexpr int64_t kCommitRows = 1 << 20;
// At most every this often, new process and thread names are written as rows arrive.
constexpr std::chrono::milliseconds kNamesDelay{100};

// Encoded rows waiting for the writer thread: 256 batches of 1,024 NVTX rows (~72 KB each in a
// 128 KiB buffer), a fifth of a second of what an H200 host's writer inserts, on top of what the
// injection's rings hold.
constexpr size_t kMaxQueuedBytes = size_t{32} << 20;

// Beyond that, batches wait in a spill file next to the report: ~7 M NVTX rows, a burst that
// leaves a few seconds of inserting for after the program's exit instead of dropped records.
constexpr uint64_t kMaxSpillBytes = uint64_t{512} << 20;

// Write-ahead log: if prof is killed (SLURM's KillWait, the OOM killer), the partial file and its
// -wal are a valid database as of the last commit, which any reader opens (a transaction cut
// short never reaches the file; with journal_mode OFF, 3 of 15 kills during heavy writing left a
// malformed file). synchronous OFF: the kernel's page cache outlives prof; only a power cut may
// lose what was committed last. The exclusive lock comes first, so that the log's index is kept
// in prof's memory (no -shm file).
constexpr std::string_view kLoadPragmas =
    "PRAGMA locking_mode = EXCLUSIVE;"
    "PRAGMA journal_mode = WAL;"
    "PRAGMA synchronous = OFF;"
    "PRAGMA temp_store = MEMORY;"
    "PRAGMA cache_size = -65536;";  // KiB: 64 MiB

// A finished report is a plain rollback-journal database (no -wal to carry with it): the log is
// checkpointed into the file and removed.
constexpr std::string_view kFinishPragmas = "PRAGMA journal_mode = DELETE;";

// The files SQLite may have beside the partial report.
void RemoveWithLog(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    std::remove((path + suffix).c_str());
  }
}

int64_t UtcNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One per KnownTables() entry, at the same index (rows hold their inserter's address).
std::vector<std::unique_ptr<TableInserter>> InsertersOfKnownTables() {
  std::vector<std::unique_ptr<TableInserter>> inserters;
  for (const TableSpec& spec : KnownTables())
    inserters.push_back(std::make_unique<TableInserter>(spec));
  return inserters;
}

struct ThreadName {
  StringId name_id;
  int32_t priority;
  bool from_sampling = false;  // the kernel's name; a stream's replaces it
};

struct ProcessName {
  uint32_t pid;
  std::string name;
  bool from_sampling = false;  // the kernel's name; a stream's replaces it
};

}  // namespace

std::string ReportDirectory(const std::string& report_path) {
  const std::string directory = std::filesystem::path(report_path).parent_path().string();
  return directory.empty() ? "." : directory;
}

std::string PartialReportPath(const std::string& final_path, pid_t pid) {
  return final_path + ".partial-" + std::to_string(pid);
}

std::vector<std::string> PartialReportsOf(const std::string& final_path) {
  const std::filesystem::path path(final_path);
  const std::string prefix = path.filename().string() + ".partial-";
  std::vector<std::string> partials;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(ReportDirectory(final_path), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    partials.push_back((path.parent_path() / name).string());
  }
  std::sort(partials.begin(), partials.end());
  return partials;
}

class ReportWriter::Impl {
 public:
  Impl(std::string final_path, std::string partial_path, std::unique_ptr<ReportNameClaim> claim)
      : final_path_(std::move(final_path)),
        partial_path_(std::move(partial_path)),
        claim_(std::move(claim)) {}
  ~Impl() { Abandon(); }

  Status Open();
  StringId InternString(std::string_view value);
  void AddRow(size_t table_index, RowBindFunction bind, const void* row);
  // A name set again as it was changes nothing to write (thread pools rename their threads often).
  void SetProcessName(int64_t global_pid, uint32_t pid, std::string_view name) {
    const auto known = processes_.find(global_pid);
    if (known != processes_.end() && known->second.pid == pid && known->second.name == name &&
        !known->second.from_sampling) {
      return;
    }
    processes_[global_pid] = ProcessName{pid, std::string(name)};
    names_changed_ = true;
  }
  void SetThreadName(int64_t global_tid, std::string_view name, int32_t priority) {
    const ThreadName named{InternString(name), priority};
    const auto known = thread_names_.find(global_tid);
    if (known != thread_names_.end() && known->second.name_id == named.name_id &&
        known->second.priority == priority && !known->second.from_sampling) {
      return;
    }
    thread_names_[global_tid] = named;
    names_changed_ = true;
  }
  void SetSampledName(int64_t global_pid, uint32_t pid, int64_t global_tid, std::string_view name) {
    const auto thread = thread_names_.find(global_tid);
    if (thread == thread_names_.end() || thread->second.from_sampling) {
      thread_names_[global_tid] = ThreadName{InternString(name), 0, true};
      names_changed_ = true;
    }
    if (global_pid == 0) return;
    const auto process = processes_.find(global_pid);
    if (process == processes_.end() || process->second.from_sampling) {
      processes_[global_pid] = ProcessName{pid, std::string(name), true};
      names_changed_ = true;
    }
  }
  // Starts a write of a table rewritten whole: what came before is committed apart, so that the
  // write's first batch replaces the table's earlier rows and nothing else.
  void BeginRewrite(size_t table_index) {
    Note(SubmitCommit());
    tables_[table_index]->StartRewrite();
  }
  Status Commit();
  // Commit() for the writer's caller, who says a failure it returns.
  Status CommitForCaller() {
    Status status = Commit();
    if (!status.ok()) failure_told_ = true;
    return status;
  }
  uint64_t RowsWaitingOnDisk() { return batches_.rows_waiting_on_disk(); }
  std::vector<EventCount> EventCounts() const;
  Status Finish(const SessionInfo& session);
  void Abandon();

 private:
  // Adds a row to `kTable`, one of the tables the writer fills itself.
  template <const auto& kTable>
  void Insert(const TableRow<kTable>& row) {
    AddRow(ReportTables::IndexOf<kTable>(), &BindTableRow<kTable>, &row);
  }
  Status WriteSessionTables(const SessionInfo& session);
  // PROCESSES and ThreadNames as they are now, replacing the rows of the last write.
  void WriteNames();
  // Submits every open batch and a commit after them.
  Status SubmitCommit();
  template <const auto& kTable>
  Status WriteNameValues(const NameValues& rows);
  // Hands `table`'s open batch to the writer thread.
  void Submit(TableInserter* table);
  // Submits every open batch; returns the first failure so far.
  Status FlushTables();
  // Commits the report's transaction and opens the next (the pipeline's writer thread).
  Status CommitRows();
  Status CloseAndRename();
  Status KeepCommitted(const Status& failure);
  // Keeps the first failure; every later call becomes a no-op that Commit/Finish report.
  void Note(Status status) {
    if (!status.ok() && status_.ok()) status_ = std::move(status);
  }

  std::string final_path_;
  std::string partial_path_;
  std::unique_ptr<ReportNameClaim> claim_;  // null without a claim (--force-overwrite)
  Database db_;
  ReportSchema schema_{&db_};
  Transaction transaction_;
  Status status_ = Status::Ok();
  int64_t rows_since_commit_ = 0;
  bool done_ = false;  // finished or abandoned
  // A failure the caller was given by Commit() (and has said): Finish() then does not repeat it.
  bool failure_told_ = false;
  bool names_changed_ = false;  // processes_ or thread_names_ since their last write
  std::chrono::steady_clock::time_point names_written_{};

  StringInterner strings_;
  std::map<int64_t, ThreadName> thread_names_;  // by globalTid: rows come out sorted
  std::map<int64_t, ProcessName> processes_;    // by globalPid
  std::vector<std::unique_ptr<TableInserter>> tables_ = InsertersOfKnownTables();
  std::vector<uint64_t> rows_added_ = std::vector<uint64_t>(tables_.size());
  // Declared last, so that their threads end before anything they write with is destroyed. The
  // pipeline owns db_, schema_ and transaction_ from Open() until its Stop().
  ChunkPipeline pipeline_{&db_, &schema_, [this] { return CommitRows(); },
                          ChunkPipeline::DefaultEncoderThreads()};
  BatchWriter batches_{
      &pipeline_, kMaxQueuedBytes, {ReportDirectory(partial_path_), kMaxSpillBytes}};
};

Status ReportWriter::Impl::Open() {
  // A leftover of an earlier prof with the same pid would otherwise be appended to.
  RemoveWithLog(partial_path_);
  Status status = Database::OpenReadWrite(partial_path_, &db_);
  if (!status.ok()) return Status::Error("cannot create report: " + status.message());
  PROF_RETURN_IF_ERROR(db_.Exec(kLoadPragmas));
  PROF_RETURN_IF_ERROR(Transaction::Begin(&db_, &transaction_));
  PROF_RETURN_IF_ERROR(schema_.CreateAlwaysTables());
  PROF_RETURN_IF_ERROR(pipeline_.Start());
  batches_.Start();
  PROF_RETURN_IF_ERROR(
      WriteNameValues<kMetaDataExportTable>(ExportMetadata(final_path_, UtcNowNs())));
  // From its first moment the partial file is a report (its tables and META_DATA_EXPORT), so that
  // whatever a killed prof committed reads as one.
  return Commit();
}

StringId ReportWriter::Impl::InternString(std::string_view value) {
  const StringInterner::Result interned = strings_.Intern(value);
  if (interned.added) Insert<kStringIdsTable>({interned.id, value});
  return interned.id;
}

void ReportWriter::Impl::AddRow(size_t table_index, RowBindFunction bind, const void* row) {
  if (!status_.ok()) return;
  TableInserter* table = tables_[table_index].get();
  ++rows_added_[table_index];
  if (table->Add(bind, row)) Submit(table);
  if (++rows_since_commit_ >= kCommitRows) Note(Commit());
}

std::vector<EventCount> ReportWriter::Impl::EventCounts() const {
  std::vector<EventCount> counts;
  for (size_t i = 0; i < rows_added_.size(); ++i) {
    const std::string& noun = KnownTables()[i].event_noun;
    if (!noun.empty() && rows_added_[i] > 0) counts.push_back({noun, rows_added_[i]});
  }
  return counts;
}

void ReportWriter::Impl::Submit(TableInserter* table) {
  Note(batches_.SubmitRows(table->TakeBatch(batches_.TakeSpareBytes())));
  // The writer thread commits each chunk it copies: new processes and threads are named within
  // kNamesDelay of the rows that follow them, so that any commit names nearly all it holds.
  if (names_changed_) {
    const auto now = std::chrono::steady_clock::now();
    if (now - names_written_ >= kNamesDelay) {
      names_written_ = now;
      WriteNames();
    }
  }
}

Status ReportWriter::Impl::FlushTables() {
  for (const auto& table : tables_) {
    if (table->pending() > 0) Submit(table.get());
  }
  return status_;
}

// Names are written at each commit they changed before, so that a report cut short by prof's
// death names the processes and threads of what it committed.
Status ReportWriter::Impl::Commit() {
  if (!status_.ok()) return status_;
  if (names_changed_) WriteNames();
  return SubmitCommit();
}

Status ReportWriter::Impl::SubmitCommit() {
  rows_since_commit_ = 0;
  PROF_RETURN_IF_ERROR(FlushTables());
  Note(batches_.SubmitCommit());
  return status_;
}

void ReportWriter::Impl::WriteNames() {
  names_changed_ = false;
  BeginRewrite(ReportTables::IndexOf<kProcessesTable>());
  for (const auto& [global_pid, process] : processes_) {
    Insert<kProcessesTable>({global_pid, process.pid, process.name});
  }
  BeginRewrite(ReportTables::IndexOf<kThreadNamesTable>());
  for (const auto& [global_tid, thread] : thread_names_) {
    Insert<kThreadNamesTable>({thread.name_id, thread.priority, global_tid});
  }
}

Status ReportWriter::Impl::CommitRows() {
  PROF_RETURN_IF_ERROR(transaction_.Commit());
  return Transaction::Begin(&db_, &transaction_);
}

template <const auto& kTable>
Status ReportWriter::Impl::WriteNameValues(const NameValues& rows) {
  for (const auto& [name, value] : rows) Insert<kTable>({name, value});
  return status_;
}

Status ReportWriter::Impl::WriteSessionTables(const SessionInfo& session) {
  const int64_t start = session.utc_epoch_ns_at_start;
  const std::string utc_time = FormatUtcTime(start);
  const std::string local_time = FormatLocalTime(start);
  Insert<kTargetInfoSessionStartTimeTable>({start, utc_time, local_time});
  if (names_changed_) WriteNames();
  return WriteNameValues<kProfSessionTable>(SessionRows(session));
}

Status ReportWriter::Impl::Finish(const SessionInfo& session) {
  if (done_) return Status::Error("report " + final_path_ + " was already finished or abandoned");
  Status status = WriteSessionTables(session);
  if (status.ok()) status = FlushTables();
  // The backlog is written and SQLite is this thread's again.
  if (status.ok()) status = batches_.Stop();
  if (status.ok()) status = pipeline_.Stop();
  if (status.ok()) status = transaction_.Commit();
  if (status.ok()) status = db_.Exec(kFinishPragmas);
  if (status.ok()) status = CloseAndRename();
  if (!status.ok()) return KeepCommitted(status);
  done_ = true;
  return Status::Ok();
}

Status ReportWriter::Impl::CloseAndRename() {
  db_.Close();
  // Another database's log under the final name would be read as this report's.
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    std::remove((final_path_ + suffix).c_str());
  }
  std::remove((partial_path_ + "-shm").c_str());
  if (std::rename(partial_path_.c_str(), final_path_.c_str()) != 0) {
    return Status::Error("cannot rename " + partial_path_ + ": " + std::strerror(errno));
  }
  claim_.reset();  // the report replaced the placeholder: nothing of the claim is left to remove
  // A log left (only when writing failed) follows its file; the file first, so that no moment
  // puts the log beside another file. Without it the file is what its last checkpoint holds.
  const std::string log = partial_path_ + "-wal";
  if (access(log.c_str(), F_OK) == 0 &&
      std::rename(log.c_str(), (final_path_ + "-wal").c_str()) != 0) {
    return Status::Error("cannot rename " + log + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

// A full disk, a file-size limit: what the last successful commit holds is a valid report (the
// write-ahead log keeps a failed commit out), so it goes under the final name rather than away.
Status ReportWriter::Impl::KeepCommitted(const Status& failure) {
  done_ = true;
  batches_.Cancel();
  pipeline_.Cancel();
  transaction_ = Transaction();  // rolls back what was not committed
  // Copies the log into the file where there is room; else the log goes along with the file.
  (void)db_.Exec(kFinishPragmas);
  // The cause once: when a commit already failed with it, the caller said so then.
  const std::string message =
      "cannot write report " + final_path_ +
      (failure_told_ && failure.message() == status_.message() ? " (the warning above says why)"
                                                               : ": " + failure.message());
  if (Status kept = CloseAndRename(); !kept.ok()) {
    const bool file_moved = access(partial_path_.c_str(), F_OK) != 0;
    RemoveWithLog(partial_path_);
    claim_.reset();
    return Status::Error(
        message +
        (file_moved ? "; it keeps what its last checkpoint held (" : "; nothing was kept (") +
        kept.message() + ")");
  }
  return Status::Error(message + "; it keeps what was written until then");
}

void ReportWriter::Impl::Abandon() {
  if (done_) return;
  done_ = true;
  batches_.Cancel();  // the backlog is thrown away with the file
  pipeline_.Cancel();
  transaction_ = Transaction();  // rolls back
  db_.Close();
  RemoveWithLog(partial_path_);
  claim_.reset();  // removes the placeholder: the name is free again
}

// ---- ReportWriter: forwards to Impl ----

ReportWriter::ReportWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ReportWriter::~ReportWriter() = default;

StatusOr<std::unique_ptr<ReportWriter>> ReportWriter::Create(const std::string& final_path) {
  return Create(nullptr, final_path);
}

StatusOr<std::unique_ptr<ReportWriter>> ReportWriter::Create(std::unique_ptr<ReportNameClaim> claim,
                                                             const std::string& final_path) {
  const std::string partial_path = PartialReportPath(final_path, getpid());
  auto impl = std::make_unique<Impl>(final_path, partial_path, std::move(claim));
  PROF_RETURN_IF_ERROR(impl->Open());
  return std::unique_ptr<ReportWriter>(new ReportWriter(std::move(impl)));
}

StringId ReportWriter::InternString(std::string_view value) { return impl_->InternString(value); }

std::vector<EventCount> ReportWriter::EventCounts() const { return impl_->EventCounts(); }

void ReportWriter::AddRow(size_t table_index, RowBindFunction bind, const void* row) {
  impl_->AddRow(table_index, bind, row);
}

void ReportWriter::AddProcess(int64_t global_pid, uint32_t pid, std::string_view name) {
  impl_->SetProcessName(global_pid, pid, name);
}

void ReportWriter::SetThreadName(int64_t global_tid, std::string_view name, int32_t priority) {
  impl_->SetThreadName(global_tid, name, priority);
}

void ReportWriter::SetSampledName(int64_t global_pid, uint32_t pid, int64_t global_tid,
                                  std::string_view name) {
  impl_->SetSampledName(global_pid, pid, global_tid, name);
}

void ReportWriter::BeginRewrite(size_t table_index) { impl_->BeginRewrite(table_index); }

Status ReportWriter::Commit() { return impl_->CommitForCaller(); }
uint64_t ReportWriter::RowsWaitingOnDisk() { return impl_->RowsWaitingOnDisk(); }

Status ReportWriter::Finish(const SessionInfo& session) { return impl_->Finish(session); }

void ReportWriter::Abandon() { impl_->Abandon(); }

}  // namespace prof::storage
