// Claims a report's final name for one prof run before the program starts, so that prof runs in
// one directory at the same time (CI jobs) never write the same report.
//
// Contract:
// - Take() creates a placeholder under the name with O_CREAT|O_EXCL: of several runs claiming one
//   name at once, exactly one gets it. The placeholder holds kReportPlaceholderText and its owner
//   keeps an flock() on it for as long as the claim lasts; the lock is taken before the text is
//   written. So a placeholder with the text that nobody holds locked was left by a prof that was
//   killed, and Take() takes it over (the kernel drops a dead process's locks: no pid guessing).
// - Destruction ends the claim: the placeholder is removed if it is still under the name (it is not
//   when the report was renamed over it, or when a --force-overwrite run replaced it), and only
//   then is the lock released. Another file under the name is never removed.
// - Not thread-safe; the descriptor is close-on-exec, so the program never holds the lock.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

namespace prof::storage {

// What a report's name holds while a prof run writes the report.
inline constexpr const char kReportPlaceholderText[] =
    "prof: a running prof profile has claimed this name; its report replaces this file\n";

// Whether the file at `path` is a claim's placeholder: a running prof's, or one a killed prof left.
bool IsReportPlaceholder(const std::string& path);

class ReportNameClaim {
 public:
  enum class Outcome {
    kClaimed,       // the name was free
    kTakenOver,     // a killed prof's placeholder was there
    kExists,        // a report or another file is there
    kBeingWritten,  // a running prof holds the name
  };

  // Sets *claim for kClaimed and kTakenOver. Fails only when the name cannot be claimed for another
  // reason than being taken (missing directory, no permission, full disk).
  static Status Take(const std::string& path, Outcome* outcome,
                     std::unique_ptr<ReportNameClaim>* claim);
  ~ReportNameClaim();
  ReportNameClaim(const ReportNameClaim&) = delete;
  ReportNameClaim& operator=(const ReportNameClaim&) = delete;

  const std::string& path() const { return path_; }

 private:
  ReportNameClaim(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_;  // the placeholder, locked
};

}  // namespace prof::storage
