#include "storage/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace prof::storage {
namespace {

Status Failure(const std::string& what) {
  return Status::Error(what + ": " + std::strerror(errno));
}

}  // namespace

SpillFile::~SpillFile() { Close(); }

Status SpillFile::Create(const std::string& directory) {
  Close();
  fd_ = open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) return Status::Ok();
  // Some file systems (older NFS, overlay set-ups) refuse O_TMPFILE. mkostemp replaces the X's.
  std::string name = directory + "/.prof-spill-XXXXXX";
  fd_ = mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) return Failure("cannot create a spill file in " + directory);
  unlink(name.c_str());
  return Status::Ok();
}

Status SpillFile::Write(uint64_t offset, const void* head, size_t head_size, const void* body,
                        size_t body_size) {
  PROF_RETURN_IF_ERROR(WriteAll(offset, head, head_size));
  return WriteAll(offset + head_size, body, body_size);
}

Status SpillFile::WriteAll(uint64_t offset, const void* data, size_t size) {
  const char* from = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = pwrite(fd_, from, size, static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return Failure("cannot write the spill file");
    from += written;
    offset += static_cast<uint64_t>(written);
    size -= static_cast<size_t>(written);
  }
  return Status::Ok();
}

Status SpillFile::Read(uint64_t offset, void* out, size_t size) const {
  char* to = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = pread(fd_, to, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Failure("cannot read the spill file");
    if (got == 0) return Status::Error("the spill file ended early");
    to += got;
    offset += static_cast<uint64_t>(got);
    size -= static_cast<size_t>(got);
  }
  return Status::Ok();
}

Status SpillFile::Clear() {
  if (ftruncate(fd_, 0) != 0) return Failure("cannot truncate the spill file");
  return Status::Ok();
}

void SpillFile::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

}  // namespace prof::storage
