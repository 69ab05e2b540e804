#include "storage/batch_writer.h"

#include <pthread.h>

#include <utility>

#include "common/signals_blocked.h"

namespace prof::storage {

void BatchWriter::Start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_) return;
  running_ = true;
  stopping_ = false;
  {
    const ScopedSignalsBlocked for_the_writer;
    thread_ = std::thread(&BatchWriter::Loop, this);
  }
  pthread_setname_np(thread_.native_handle(), "prof-writer");  // tells it apart in top and perf
}

Status BatchWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return status_;
    stopping_ = true;
  }
  queued_.notify_one();
  thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  running_ = false;
  // The backlog is gone: its memory and disk go back before the owner's next step.
  spare_bytes_.clear();
  spare_capacity_ = 0;
  spilled_task_ = Task();
  spill_.Close();
  return status_;
}

void BatchWriter::Cancel() {
  Status before = Status::Ok();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    before = status_;
    Note(Status::Error("cancelled"));  // the writer thread skips what a failure leaves
  }
  (void)Stop();
  std::lock_guard<std::mutex> lock(mutex_);
  status_ = std::move(before);  // later tasks run (and fail or not) on their own merits
}

Status BatchWriter::SubmitRows(RowBatch batch) {
  Task task;
  task.batch = std::move(batch);
  return Submit(std::move(task));
}

Status BatchWriter::SubmitCommit() {
  Task task;
  task.commit = true;
  return Submit(std::move(task));
}

Status BatchWriter::status() {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

uint64_t BatchWriter::spilled_tasks() {
  std::lock_guard<std::mutex> lock(mutex_);
  return spilled_tasks_;
}

uint64_t BatchWriter::rows_waiting_on_disk() {
  std::lock_guard<std::mutex> lock(mutex_);
  return spilled_rows_waiting_;
}

ByteBuffer BatchWriter::TakeSpareBytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (spare_bytes_.empty()) return ByteBuffer();
  ByteBuffer bytes = std::move(spare_bytes_.back());
  spare_bytes_.pop_back();
  spare_capacity_ -= bytes.capacity();
  return bytes;
}

Status BatchWriter::Submit(Task task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!running_) {
    // No writer thread: the submitter is the only thread touching the sink.
    if (status_.ok()) Note(Execute(task));
    Recycle(std::move(task.batch.bytes));
    return status_;
  }
  while (true) {
    const bool memory_has_room = tasks_.empty() || queued_bytes_ < max_queued_bytes_;
    if (memory_has_room && !HasSpilledTasks()) break;
    if (Spill(&task)) return status_;
    written_.wait(lock);  // the writer ran a task: memory or the spill file may have room now
  }
  queued_bytes_ += task.batch.bytes.capacity();
  tasks_.push_back(std::move(task));
  lock.unlock();
  queued_.notify_one();
  lock.lock();
  return status_;
}

bool BatchWriter::Spill(Task* task) {
  if (spill_options_.directory.empty() || spill_failed_) return false;
  const SpilledTask head{task->batch.table, task->batch.bytes.size(), task->batch.rows,
                         static_cast<uint8_t>(task->commit ? 1 : 0),
                         static_cast<uint8_t>(task->batch.starts_rewrite ? 1 : 0)};
  const uint64_t size = sizeof(head) + head.byte_count;
  if (spill_end_ - spill_read_ + size > spill_options_.max_bytes) return false;
  // Made at the first overflow only: most reports never need it.
  if (!spill_.is_open() && !spill_.Create(spill_options_.directory).ok()) {
    spill_failed_ = true;
    return false;
  }
  // A write that failed half-way is never read: the end only moves past complete tasks.
  if (!spill_.Write(spill_end_, &head, sizeof(head), task->batch.bytes.data(), head.byte_count)
           .ok()) {
    spill_failed_ = true;
    return false;
  }
  spill_end_ += size;
  ++spilled_tasks_;
  spilled_rows_waiting_ += static_cast<uint64_t>(head.rows);
  Recycle(std::move(task->batch.bytes));
  queued_.notify_one();
  return true;
}

Status BatchWriter::Execute(const Task& task) {
  return task.commit ? sink_->CommitRows() : sink_->WriteRows(task.batch);
}

void BatchWriter::Note(Status status) {
  if (!status.ok() && status_.ok()) status_ = std::move(status);
}

void BatchWriter::RunSpilledTask(std::unique_lock<std::mutex>& lock) {
  const uint64_t offset = spill_read_;
  SpilledTask head{};
  Status status = Status::Ok();
  if (status_.ok()) {
    // The region before spill_end_ is complete and no longer written: read it unlocked.
    lock.unlock();
    status = spill_.Read(offset, &head, sizeof(head));
    if (status.ok()) {
      spilled_task_.commit = head.commit != 0;
      spilled_task_.batch.table = head.table;
      spilled_task_.batch.rows = head.rows;
      spilled_task_.batch.starts_rewrite = head.starts_rewrite != 0;
      spilled_task_.batch.bytes.Clear();
      status = spill_.Read(offset + sizeof(head),
                           spilled_task_.batch.bytes.AppendSpace(head.byte_count), head.byte_count);
    }
    if (status.ok()) status = Execute(spilled_task_);
    lock.lock();
    Note(std::move(status));
  }
  // After a failure nothing more runs: skip what is left.
  spill_read_ = status_.ok() ? offset + sizeof(head) + head.byte_count : spill_end_;
  spilled_rows_waiting_ -= static_cast<uint64_t>(head.rows);
  if (!HasSpilledTasks()) {
    // Caught up: the disk space goes back, and new tasks go to memory again.
    spill_read_ = spill_end_ = 0;
    spilled_rows_waiting_ = 0;
    if (!spill_.Clear().ok()) spill_failed_ = true;
  }
  written_.notify_one();
}

void BatchWriter::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queued_.wait(lock, [&] { return !tasks_.empty() || HasSpilledTasks() || stopping_; });
    if (tasks_.empty()) {
      // Spilled tasks are always younger than the queued ones: they run once memory is empty.
      if (!HasSpilledTasks()) return;
      RunSpilledTask(lock);
      continue;
    }
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    if (status_.ok()) {
      lock.unlock();
      Status status = Execute(task);
      lock.lock();
      Note(std::move(status));
    }
    // Counted until written, so that the bound covers the batch in SQLite's hands too.
    queued_bytes_ -= task.batch.bytes.capacity();
    Recycle(std::move(task.batch.bytes));
    written_.notify_one();
  }
}

void BatchWriter::Recycle(ByteBuffer bytes) {
  // Queued and spare buffers together stay within the bound. Within it a backlog's memory is
  // reused by the next one instead of being freed and faulted in again page by page (which costs
  // the collector more than encoding the rows).
  const size_t held = queued_bytes_ + spare_capacity_ + bytes.capacity();
  if (bytes.capacity() == 0 || held > max_queued_bytes_) return;
  spare_capacity_ += bytes.capacity();
  spare_bytes_.push_back(std::move(bytes));
}

}  // namespace prof::storage
