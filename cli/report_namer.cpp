#include "cli/report_namer.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "cli/output_path.h"
#include "storage/report_writer.h"

namespace prof::cli {
namespace {

using storage::ReportNameClaim;

// Said before the new run's own partial report exists: the ones there are the killed runs'.
void NoteTakeOver(ReportNameClaim::Outcome outcome, const std::string& path) {
  if (outcome != ReportNameClaim::Outcome::kTakenOver) return;
  std::string kept;
  for (const std::string& partial : storage::PartialReportsOf(path)) {
    kept += (kept.empty() ? "" : ", ") + partial;
  }
  if (kept.empty()) {
    spdlog::info("taking over {}, left by a prof run that ended without writing it", path);
  } else {
    spdlog::info(
        "taking over {}, left by a prof run that ended without finishing it; what that run "
        "wrote stays in {}",
        path, kept);
  }
}

}  // namespace

Status ReportNamer::Claim(pid_t pid, uint32_t number, std::string* path,
                          std::unique_ptr<ReportNameClaim>* claim) {
  if (base_.empty()) {
    if (pattern_.empty()) return ClaimDefaultName(number, path, claim);
    Status status = ExpandReportPath(pattern_, pid, &base_);
    if (!status.ok()) return status;
  }
  *path = number == 0 ? base_ : NumberedReportPath(base_, number);
  return ClaimGivenName(*path, claim);
}

Status ReportNamer::ClaimDefaultName(uint32_t number, std::string* path,
                                     std::unique_ptr<ReportNameClaim>* claim) {
  for (uint32_t n = 1;; ++n) {
    const std::string base = DefaultReportPath(n);
    std::error_code error;
    // Repeated captures write reportN.1.sqlite, ... and never reportN.sqlite: a reportN.sqlite
    // already there belongs to another run, whose N this one must not look like a part of.
    if (number != 0 && std::filesystem::exists(std::filesystem::symlink_status(base, error))) {
      continue;
    }
    const std::string candidate = number == 0 ? base : NumberedReportPath(base, number);
    ReportNameClaim::Outcome outcome;
    Status status = ReportNameClaim::Take(candidate, &outcome, claim);
    if (!status.ok()) return status;
    if (*claim != nullptr) {
      NoteTakeOver(outcome, candidate);
      base_ = base;
      *path = candidate;
      return Status::Ok();
    }
  }
}

Status ReportNamer::ClaimGivenName(const std::string& path,
                                   std::unique_ptr<ReportNameClaim>* claim) {
  // Default names are claimed whatever -f says: they are meant to be free names, not replaced ones.
  if (force_overwrite_ && !pattern_.empty()) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      return Status::Error("report path is a directory: " + path);
    }
    return Status::Ok();
  }
  ReportNameClaim::Outcome outcome;
  Status status = ReportNameClaim::Take(path, &outcome, claim);
  if (!status.ok()) return status;
  if (outcome == ReportNameClaim::Outcome::kExists) {
    return Status::Error("report " + path +
                         " already exists; use --force-overwrite=true to replace it");
  }
  if (outcome == ReportNameClaim::Outcome::kBeingWritten) {
    return Status::Error("report " + path +
                         " is being written by another prof run; use another name, or "
                         "--force-overwrite=true to replace it");
  }
  NoteTakeOver(outcome, path);
  return Status::Ok();
}

}  // namespace prof::cli
