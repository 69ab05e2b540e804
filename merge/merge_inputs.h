// The reports `prof merge` combines, read and checked before anything is written.
//
// Checks, each failing with one line that names the file(s): a file is missing, is not SQLite or
// not a report (stats/report_database.h); the same file is given twice; the reports differ in
// META_DATA_EXPORT's EXPORT_SCHEMA_VERSION; a report has no session start time
// (TARGET_INFO_SESSION_START_TIME.utcEpochNs, needed to align the time bases); two reports hold
// a process of the same pid. nsys's globalPid/globalTid carry the pid but no host, so two such
// processes (captures on different hosts) could not be told apart in the merged report: merge
// refuses them rather than renumbering pids that PID columns and scripts rely on.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"

namespace prof::merge {

struct MergeInput {
  std::string path;
  std::string schema_version;    // META_DATA_EXPORT.EXPORT_SCHEMA_VERSION, e.g. "3.20.3"
  int64_t session_start_ns = 0;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
  std::set<int64_t> pids;        // the pids of the processes with events
};

// Reads and checks `paths` (at least two), in the order given.
Status ReadMergeInputs(const std::vector<std::string>& paths, std::vector<MergeInput>* out);

}  // namespace prof::merge
