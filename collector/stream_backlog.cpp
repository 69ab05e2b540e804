#include "collector/stream_backlog.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace prof::collector {

StreamBacklog::StreamBacklog(size_t max_memory_bytes, uint64_t max_spill_bytes)
    : max_memory_bytes_(max_memory_bytes),
      max_spill_bytes_(max_spill_bytes),
      ready_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

StreamBacklog::~StreamBacklog() {
  if (ready_fd_ >= 0) close(ready_fd_);
}

void StreamBacklog::SpillTo(const std::string& directory) {
  std::lock_guard<std::mutex> lock(mutex_);
  spill_directory_ = directory;
}

std::vector<char> StreamBacklog::TakeBuffer(size_t size) {
  std::vector<char> bytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_.empty() && spare_.back().size() >= size) {
      bytes = std::move(spare_.back());
      spare_.pop_back();
      spare_bytes_ -= bytes.capacity();
    }
  }
  if (bytes.size() < size) bytes.resize(size);
  return bytes;
}

void StreamBacklog::Push(StreamChunk* chunk) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      if (closed_) return;  // nobody takes chunks any more
      const bool memory_has_room = chunks_.empty() || queued_bytes_ < max_memory_bytes_;
      if (memory_has_room && !HasSpilled()) {
        queued_bytes_ += chunk->bytes.capacity();
        chunks_.push_back(std::move(*chunk));
        chunk->bytes = std::vector<char>();
        break;
      }
      if (Spill(*chunk)) break;
      room_.wait(lock);  // the collector took a chunk, or Close() came
    }
  }
  SignalReady();
}

void StreamBacklog::Close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  room_.notify_all();
}

bool StreamBacklog::Spill(const StreamChunk& chunk) {
  if (spill_directory_.empty() || spill_failed_) return false;
  const SpilledChunk head{chunk.connection, chunk.length, chunk.closed ? 1u : 0u};
  const uint64_t size = sizeof(head) + head.length;
  if (spill_end_ - spill_read_ + size > max_spill_bytes_) return false;
  // Made at the first overflow only: most sessions never need it.
  if (!spill_.is_open() && !spill_.Create(spill_directory_).ok()) {
    spill_failed_ = true;
    return false;
  }
  // A write that failed half-way is never read: the end only moves past complete chunks.
  if (!spill_.Write(spill_end_, &head, sizeof(head), chunk.bytes.data(), chunk.length).ok()) {
    spill_failed_ = true;
    return false;
  }
  spill_end_ += size;
  spilled_bytes_ += chunk.length;
  return true;
}

void StreamBacklog::ClearReady() {
  uint64_t count = 0;
  while (read(ready_fd_, &count, sizeof(count)) < 0 && errno == EINTR) {
  }
}

void StreamBacklog::SignalReady() {
  const uint64_t one = 1;
  while (write(ready_fd_, &one, sizeof(one)) < 0 && errno == EINTR) {
  }
}

bool StreamBacklog::Take(StreamChunk* chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!chunks_.empty()) {
    // Spilled chunks are always younger than the ones in memory: they come once memory is empty.
    *chunk = std::move(chunks_.front());
    chunks_.pop_front();
    queued_bytes_ -= chunk->bytes.capacity();
  } else if (HasSpilled()) {
    TakeSpilled(lock, chunk);
  } else {
    return false;
  }
  lock.unlock();
  room_.notify_one();
  return true;
}

void StreamBacklog::TakeSpilled(std::unique_lock<std::mutex>& lock, StreamChunk* chunk) {
  const uint64_t offset = spill_read_;
  std::vector<char> bytes;
  if (!spare_.empty()) {
    bytes = std::move(spare_.back());
    spare_.pop_back();
    spare_bytes_ -= bytes.capacity();
  }
  // The region before spill_end_ is complete and no longer written: read it unlocked.
  lock.unlock();
  SpilledChunk head{};
  bool read = spill_.Read(offset, &head, sizeof(head)).ok();
  if (read) {
    if (bytes.size() < head.length) bytes.resize(head.length);
    read = spill_.Read(offset + sizeof(head), bytes.data(), head.length).ok();
  }
  lock.lock();
  // A file that cannot be read back loses what it holds (connection 0: nobody's); the collector
  // then ends the open streams with an error (session_server).
  chunk->connection = read ? head.connection : 0;
  chunk->closed = read && head.closed != 0;
  chunk->length = read ? head.length : 0;
  chunk->bytes = std::move(bytes);
  spill_read_ = read ? offset + sizeof(head) + head.length : spill_end_;
  if (!HasSpilled()) {
    // Caught up: the disk space goes back, and new chunks go to memory again.
    spill_read_ = spill_end_ = 0;
    if (!spill_.Clear().ok()) spill_failed_ = true;
  }
}

void StreamBacklog::Recycle(StreamChunk chunk) {
  std::lock_guard<std::mutex> lock(mutex_);
  KeepSpare(std::move(chunk.bytes));
}

void StreamBacklog::KeepSpare(std::vector<char> bytes) {
  // Within the bound a burst's buffers are reused by the next reads instead of being freed and
  // faulted in again page by page.
  if (bytes.empty() || queued_bytes_ + spare_bytes_ + bytes.capacity() > max_memory_bytes_) return;
  spare_bytes_ += bytes.capacity();
  spare_.push_back(std::move(bytes));
}

bool StreamBacklog::empty() {
  std::lock_guard<std::mutex> lock(mutex_);
  return chunks_.empty() && !HasSpilled();
}

uint64_t StreamBacklog::spilled_bytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return spilled_bytes_;
}

uint64_t StreamBacklog::bytes_on_disk() {
  std::lock_guard<std::mutex> lock(mutex_);
  return spill_end_ - spill_read_;
}

}  // namespace prof::collector
