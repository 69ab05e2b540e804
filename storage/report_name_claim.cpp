#include "storage/report_name_claim.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace prof::storage {
namespace {

constexpr size_t kPlaceholderSize = sizeof(kReportPlaceholderText) - 1;

// A placeholder gets its text microseconds after its creation; a file that stays empty or holds
// part of the text for a second (a user's empty file, a prof killed in that moment) is no claim.
constexpr int kMaxCreationWaits = 100;
constexpr useconds_t kCreationWaitUs = 10000;

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Whether `fd` still is the file under `path` (not replaced, renamed over or removed since).
bool IsUnderName(int fd, const std::string& path) {
  struct stat held = {};
  struct stat named = {};
  return fstat(fd, &held) == 0 && lstat(path.c_str(), &named) == 0 && SameFile(held, named);
}

enum class Content { kPlaceholder, kPlaceholderBeingCreated, kOther };

Content ReadContent(int fd) {
  struct stat held = {};
  if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) return Content::kOther;
  // One byte more than the text: a longer file is not a placeholder.
  char content[kPlaceholderSize + 1];
  const ssize_t size = pread(fd, content, sizeof(content), 0);
  if (size < 0 || size > static_cast<ssize_t>(kPlaceholderSize) ||
      std::memcmp(content, kReportPlaceholderText, static_cast<size_t>(size)) != 0) {
    return Content::kOther;
  }
  return size == static_cast<ssize_t>(kPlaceholderSize) ? Content::kPlaceholder
                                                        : Content::kPlaceholderBeingCreated;
}

}  // namespace

bool IsReportPlaceholder(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  const bool placeholder = ReadContent(fd) == Content::kPlaceholder;
  close(fd);
  return placeholder;
}

namespace {

enum class Existing { kTakenOver, kExists, kBeingWritten, kBeingCreated, kChanged };

// The name exists: a dead run's placeholder is taken over (*fd set, locked), anything else is
// left alone. kBeingCreated: empty or part of the text, as a placeholder is between its creation
// and its text. kChanged: the name was removed or replaced meanwhile.
Existing InspectExisting(const std::string& path, int* fd) {
  // O_NONBLOCK: a FIFO under the name must not block the open.
  const int existing = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (existing < 0) return errno == ENOENT ? Existing::kChanged : Existing::kExists;
  const Content content = ReadContent(existing);
  if (content != Content::kPlaceholder) {
    close(existing);
    return content == Content::kOther ? Existing::kExists : Existing::kBeingCreated;
  }
  // Any failure counts as a live owner: where locks do not work, claims are never taken over.
  if (flock(existing, LOCK_EX | LOCK_NB) != 0) {
    close(existing);
    return Existing::kBeingWritten;
  }
  // The owner may have ended its claim just now (report renamed over it, or placeholder removed):
  // then the lock is free but the file is no longer under the name.
  if (!IsUnderName(existing, path)) {
    close(existing);
    return Existing::kChanged;
  }
  *fd = existing;
  return Existing::kTakenOver;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

}  // namespace

Status ReportNameClaim::Take(const std::string& path, Outcome* outcome,
                             std::unique_ptr<ReportNameClaim>* claim) {
  int creation_waits = 0;
  for (;;) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      // Locked before the text is written, so that no one takes a fresh claim for a dead one. A
      // failed lock (a file system without flock) only means the claim is never taken over.
      (void)flock(fd, LOCK_EX | LOCK_NB);
      std::unique_ptr<ReportNameClaim> fresh(new ReportNameClaim(path, fd));
      if (!WriteAll(fd, kReportPlaceholderText, kPlaceholderSize)) {
        // `fresh` removes the placeholder as it goes.
        return Status::Error("cannot create report " + path + ": " + std::strerror(errno));
      }
      *outcome = Outcome::kClaimed;
      *claim = std::move(fresh);
      return Status::Ok();
    }
    if (errno != EEXIST) {
      return Status::Error("cannot create report " + path + ": " + std::strerror(errno));
    }
    int taken_over = -1;
    switch (InspectExisting(path, &taken_over)) {
      case Existing::kTakenOver:
        *outcome = Outcome::kTakenOver;
        claim->reset(new ReportNameClaim(path, taken_over));
        return Status::Ok();
      case Existing::kExists:
        *outcome = Outcome::kExists;
        return Status::Ok();
      case Existing::kBeingWritten:
        *outcome = Outcome::kBeingWritten;
        return Status::Ok();
      case Existing::kBeingCreated:
        if (creation_waits == kMaxCreationWaits) {
          *outcome = Outcome::kExists;
          return Status::Ok();
        }
        ++creation_waits;
        usleep(kCreationWaitUs);
        break;
      case Existing::kChanged:
        break;
    }
  }
}

ReportNameClaim::~ReportNameClaim() {
  // The name goes before the lock, so that no one sees an unlocked placeholder of a live run. A
  // --force-overwrite run renaming its report over the placeholder between the check and the
  // unlink would lose it: the one window left, microseconds, for a run told to replace.
  if (IsUnderName(fd_, path_)) unlink(path_.c_str());
  close(fd_);
}

}  // namespace prof::storage
