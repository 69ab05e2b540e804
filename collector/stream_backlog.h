// The bytes read from the record streams, waiting for the collector thread: the launcher's socket
// reader thread (session_server) appends what it reads, the collector thread takes it in the same
// order and decodes it. The reader then drains the program's rings at the pace of a socket read,
// not at the pace of decoding and tracking, so a burst costs a longer finish instead of records.
//
// Contract:
// - Chunks come out in the order they went in, across memory and the spill file.
// - Bounded memory: queued and spare chunk buffers hold at most about `max_memory_bytes`. Beyond
//   that, chunks wait in a spill file (made at the first overflow, in the directory SpillTo()
//   names) of at most `max_spill_bytes`. Once that is full too (or cannot be made or written, or
//   no directory was named), Push() waits for room: the reader stops reading, the program's rings
//   fill, and the injection's back-pressure takes over (bounded wait, then counted drops).
// - While chunks wait on disk, later ones follow them there; memory takes chunks again once the
//   spill file is empty.
// - One thread pushes, one thread takes. Close() says nobody will take chunks any more: it ends
//   a wait for room, and later pushes are thrown away (a session torn down without its records).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/spill_file.h"

namespace prof::collector {

// What one read of one connection gave: bytes, or the end of the connection.
struct StreamChunk {
  uint64_t connection = 0;
  bool closed = false;      // the connection ended: no bytes
  size_t length = 0;        // bytes used in `bytes`
  std::vector<char> bytes;  // the buffer; its size is the most one read may fill
};

class StreamBacklog {
 public:
  StreamBacklog(size_t max_memory_bytes, uint64_t max_spill_bytes);
  ~StreamBacklog();
  StreamBacklog(const StreamBacklog&) = delete;
  StreamBacklog& operator=(const StreamBacklog&) = delete;

  // Where the spill file goes (the report's directory); until then, and with an empty path,
  // there is none.
  void SpillTo(const std::string& directory);

  // Reader side. A buffer for the next read: a spare one or a fresh one of `size` bytes.
  std::vector<char> TakeBuffer(size_t size);
  // Queues `*chunk`, waiting while neither memory nor the spill file has room (see the contract).
  // Its buffer stays in `chunk->bytes` when only its bytes were queued (on disk): the next read's.
  void Push(StreamChunk* chunk);
  // Ends a wait for room; later pushes are thrown away.
  void Close();

  // Collector side. Readable while chunks wait (an eventfd): poll it with other descriptors.
  int ready_fd() const { return ready_fd_; }
  // Resets ready_fd(); call before taking, so that a later push makes it readable again.
  void ClearReady();
  // The oldest chunk, or false when none waits.
  bool Take(StreamChunk* chunk);
  // Gives a taken chunk's buffer back for later reads.
  void Recycle(StreamChunk chunk);
  bool empty();

  // Stream bytes that went through the spill file so far, and the file's size now.
  uint64_t spilled_bytes();
  uint64_t bytes_on_disk();

 private:
  // What precedes a chunk's bytes in the spill file (no padding: every byte written is set).
  struct SpilledChunk {
    uint64_t connection;
    uint64_t length;
    uint64_t closed;
  };

  bool HasSpilled() const { return spill_read_ < spill_end_; }  // caller holds mutex_
  // Appends `chunk` to the spill file; false when there is none, or it failed or is full (caller
  // holds mutex_).
  bool Spill(const StreamChunk& chunk);
  // Reads the oldest spilled chunk into `chunk` (`lock` is released meanwhile).
  void TakeSpilled(std::unique_lock<std::mutex>& lock, StreamChunk* chunk);
  void KeepSpare(std::vector<char> bytes);  // caller holds mutex_
  void SignalReady();

  const size_t max_memory_bytes_;
  const uint64_t max_spill_bytes_;
  const int ready_fd_;

  std::mutex mutex_;
  std::condition_variable room_;  // the reader waits for room
  std::deque<StreamChunk> chunks_;
  size_t queued_bytes_ = 0;  // capacity of the buffers in chunks_
  std::vector<std::vector<char>> spare_;
  size_t spare_bytes_ = 0;  // capacity of the buffers in spare_
  bool closed_ = false;

  std::string spill_directory_;
  storage::SpillFile spill_;
  bool spill_failed_ = false;  // no more spilling: the file could not be made or written
  uint64_t spill_read_ = 0;    // offset of the oldest spilled chunk not yet taken
  uint64_t spill_end_ = 0;     // where the next spilled chunk goes
  uint64_t spilled_bytes_ = 0;
};

}  // namespace prof::collector
