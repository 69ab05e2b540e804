#include "storage/batch_writer.h"

#include <pthread.h>

#include <utility>

namespace prof::storage {

void BatchWriter::Start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_) return;
  running_ = true;
  stopping_ = false;
  thread_ = std::thread(&BatchWriter::Loop, this);
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
  // The backlog is gone: its memory goes back before the owner's next step (building indexes).
  spare_bytes_.clear();
  spare_capacity_ = 0;
  return status_;
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
  written_.wait(lock, [&] { return tasks_.empty() || queued_bytes_ < max_queued_bytes_; });
  queued_bytes_ += task.batch.bytes.capacity();
  tasks_.push_back(std::move(task));
  lock.unlock();
  queued_.notify_one();
  lock.lock();
  return status_;
}

Status BatchWriter::Execute(const Task& task) {
  return task.commit ? sink_->CommitRows() : sink_->WriteRows(task.batch);
}

void BatchWriter::Note(Status status) {
  if (!status.ok() && status_.ok()) status_ = std::move(status);
}

void BatchWriter::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queued_.wait(lock, [&] { return !tasks_.empty() || stopping_; });
    if (tasks_.empty()) return;
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
