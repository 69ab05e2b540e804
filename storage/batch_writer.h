// Runs a report's SQLite work on a thread of its own, so that the collector's thread spends its
// time reading the record streams instead of waiting for inserts and commits.
//
// Contract:
// - Tasks (row batches and commits) run in the order submitted, one at a time, on the writer
//   thread while it runs (Start() to Stop()), otherwise at once on the submitting thread.
// - Bounded: Submit*() wait while the queued batches (their buffers' capacity, the batch being
//   written included) hold more than `max_queued_bytes`, so a writer slower than the streams
//   slows the collector down (and the injection then drops and counts records) instead of growing
//   memory without limit.
// - The first failing task's Status is kept; later tasks are skipped. Submit*() and status()
//   return the first failure seen so far: a writer-thread failure shows up a few batches late.
// - One thread submits (the report writer's owner); the sink's methods run on one thread at a time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status.h"
#include "storage/row_batch.h"

namespace prof::storage {

// Where the tasks run: the report's database.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  virtual Status WriteRows(const RowBatch& batch) = 0;
  virtual Status CommitRows() = 0;
};

class BatchWriter {
 public:
  BatchWriter(BatchSink* sink, size_t max_queued_bytes)
      : sink_(sink), max_queued_bytes_(max_queued_bytes) {}
  ~BatchWriter() { (void)Stop(); }  // the owner has read the status (Stop, Submit*) if it cares
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  void Start();
  // Runs every queued task, then ends the thread; later tasks run on the caller. Returns status().
  Status Stop();

  Status SubmitRows(RowBatch batch);
  Status SubmitCommit();
  Status status();

  // A buffer of a written batch, for the next batch to fill (empty when none is spare). Spare
  // and queued buffers together hold at most about `max_queued_bytes`.
  ByteBuffer TakeSpareBytes();

 private:
  struct Task {
    bool commit = false;
    RowBatch batch;
  };

  Status Submit(Task task);
  Status Execute(const Task& task);
  void Note(Status status);  // caller holds mutex_
  void Loop();
  void Recycle(ByteBuffer bytes);  // caller holds mutex_

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
};

}  // namespace prof::storage
