// Chooses and claims the report names of one `prof profile` run, before the program starts (the
// first report) or when a repeated capture needs the next one.
//
// Contract:
// - Default names: the first reportN.sqlite whose claim succeeds, so prof runs started at the same
//   time in one directory get distinct names. With repeated captures the first N whose
//   reportN.sqlite does not exist and whose reportN.1.sqlite can be claimed; later captures keep
//   that N. Default names are claimed with or without --force-overwrite.
// - -o names: claimed; a name that exists or that a running prof has claimed is an error that
//   leaves the file alone. With --force-overwrite nothing is claimed: the report replaces whatever
//   is under the name when it is complete, as before.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "storage/report_name_claim.h"

namespace prof::cli {

class ReportNamer {
 public:
  // `pattern`: the -o value, empty for default names.
  ReportNamer(std::string pattern, bool force_overwrite)
      : pattern_(std::move(pattern)), force_overwrite_(force_overwrite) {}

  // Names report `number` of the program `pid` (0: the run's one report; N: the Nth repeated
  // capture's, NAME.N.sqlite) and claims it; *claim stays null when nothing is claimed.
  Status Claim(pid_t pid, uint32_t number, std::string* path,
               std::unique_ptr<storage::ReportNameClaim>* claim);

 private:
  Status ClaimDefaultName(uint32_t number, std::string* path,
                          std::unique_ptr<storage::ReportNameClaim>* claim);
  Status ClaimGivenName(const std::string& path, std::unique_ptr<storage::ReportNameClaim>* claim);

  const std::string pattern_;
  const bool force_overwrite_;
  std::string base_;  // the unnumbered name, once the first report has been named
};

}  // namespace prof::cli
