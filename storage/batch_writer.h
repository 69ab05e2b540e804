// Runs a report's SQLite work on a thread of its own, so that the collector's thread spends its
// time reading the record streams instead of waiting for inserts and commits.
//
// Contract:
// - Tasks (row batches and commits) run in the order submitted, one at a time, on the writer
//   thread while it runs (Start() to Stop()), otherwise at once on the submitting thread.
// - Bounded memory: the queued batches (their buffers' capacity, the batch being written included)
//   hold at most about `max_queued_bytes`. Beyond that, batches wait in a spill file (when
//   SpillOptions names a directory) of at most `max_bytes`, so a burst faster than SQLite costs a
//   longer finish instead of records; once the spill file is full too (or cannot be written),
//   Submit*() wait, which slows the collector down (and the injection then drops and counts
//   records) instead of growing memory or disk without limit.
// - Order holds across both: while batches wait on disk, later ones follow them there; memory
//   takes batches again once the spill file is empty.
// - The first failing task's Status is kept; later tasks are skipped. Submit*() and status()
//   return the first failure seen so far: a writer-thread failure shows up a few batches late.
// - One thread submits (the report writer's owner); the sink's methods run on one thread at a time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/status.h"
#include "storage/row_batch.h"
#include "storage/spill_file.h"

namespace prof::storage {

// Where the tasks run: the report's database.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  virtual Status WriteRows(const RowBatch& batch) = 0;
  virtual Status CommitRows() = 0;
};

// Where batches wait when the memory bound is reached; an empty directory: nowhere (Submit*()
// wait instead). The file is made at the first overflow only.
struct SpillOptions {
  std::string directory;
  uint64_t max_bytes = 0;
};

class BatchWriter {
 public:
  BatchWriter(BatchSink* sink, size_t max_queued_bytes, SpillOptions spill = {})
      : sink_(sink), max_queued_bytes_(max_queued_bytes), spill_options_(std::move(spill)) {}
  ~BatchWriter() { (void)Stop(); }  // the owner has read the status (Stop, Submit*) if it cares
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  void Start();
  // Runs every queued task, then ends the thread; later tasks run on the caller. Returns status().
  Status Stop();
  // Skips every task not yet run (in memory or spilled), then ends the thread: for a report that
  // is thrown away, whose backlog may be seconds of inserting. status() stays what it was.
  void Cancel();

  Status SubmitRows(RowBatch batch);
  Status SubmitCommit();
  Status status();

  // A buffer of a written batch, for the next batch to fill (empty when none is spare). Spare
  // and queued buffers together hold at most about `max_queued_bytes`.
  ByteBuffer TakeSpareBytes();

  // Batches (commits included) that went through the spill file so far.
  uint64_t spilled_tasks();
  // Rows in the spill file not yet written: what a finish still has to insert beyond memory.
  uint64_t rows_waiting_on_disk();

 private:
  struct Task {
    bool commit = false;
    RowBatch batch;
  };

  // What precedes a task's rows in the spill file (no padding: every byte written is set).
  struct SpilledTask {
    TableInserter* table;
    uint64_t byte_count;
    int32_t rows;
    uint8_t commit;
    uint8_t starts_rewrite;
  };

  Status Submit(Task task);
  Status Execute(const Task& task);
  void Note(Status status);  // caller holds mutex_
  void Loop();
  void Recycle(ByteBuffer bytes);                                    // caller holds mutex_
  bool HasSpilledTasks() const { return spill_read_ < spill_end_; }  // caller holds mutex_
  // Appends `task` to the spill file; false when spilling is off, failed or full (caller holds
  // mutex_).
  bool Spill(Task* task);
  // The writer thread: runs the oldest spilled task (`lock` is released meanwhile).
  void RunSpilledTask(std::unique_lock<std::mutex>& lock);

  BatchSink* sink_;
  const size_t max_queued_bytes_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable queued_;   // the writer waits for tasks
  std::condition_variable written_;  // the submitter waits for room
  std::deque<Task> tasks_;
  size_t queued_bytes_ = 0;
  bool running_ = false;
  bool stopping_ = false;
  Status status_ = Status::Ok();
  std::vector<ByteBuffer> spare_bytes_;
  size_t spare_capacity_ = 0;  // bytes held by spare_bytes_

  const SpillOptions spill_options_;
  SpillFile spill_;
  bool spill_failed_ = false;  // no more spilling: the file could not be made or written
  uint64_t spill_read_ = 0;    // offset of the oldest spilled task not yet run
  uint64_t spill_end_ = 0;     // where the next spilled task goes
  uint64_t spilled_tasks_ = 0;
  uint64_t spilled_rows_waiting_ = 0;
  Task spilled_task_;  // the writer thread's buffer for a task read back
};

}  // namespace prof::storage
