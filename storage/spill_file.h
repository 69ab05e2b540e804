// A nameless temporary file that holds the report's row batches while SQLite is behind
// (batch_writer.h): a burst of records then waits on disk instead of being dropped by the
// injection's back-pressure, and memory stays bounded.
//
// Contract:
// - Create() makes an unnamed file in `directory`, a non-empty path (O_TMPFILE; where the file
//   system lacks it, a named file unlinked at once), so nothing is left behind however prof ends.
// - Write() and Read() take absolute offsets: one thread may append past the end while another
//   reads what was written before, without a shared file position.
// - Clear() gives the disk space back; only call it when nobody reads or writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.h"

namespace prof::storage {

class SpillFile {
 public:
  SpillFile() = default;
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  Status Create(const std::string& directory);
  bool is_open() const { return fd_ >= 0; }

  // Writes `head` then `body` at `offset`, both completely or the Status says why.
  Status Write(uint64_t offset, const void* head, size_t head_size, const void* body,
               size_t body_size);
  Status Read(uint64_t offset, void* out, size_t size) const;
  Status Clear();
  void Close();

 private:
  Status WriteAll(uint64_t offset, const void* data, size_t size);

  int fd_ = -1;
};

}  // namespace prof::storage
