// The reports `prof merge` combines, read and checked before anything is written.
//
// Checks, each failing with one line that names the file(s): a file is missing, is not SQLite or
// not a report (stats/report_database.h); the same file is given twice; the reports differ in
// META_DATA_EXPORT's EXPORT_SCHEMA_VERSION; a report has no session start time
// (TARGET_INFO_SESSION_START_TIME.utcEpochNs, needed to align the time bases).
//
// Reports whose processes share pids (ranks in identical containers on many hosts, pids reused
// between runs) are merged all the same: nsys's globalPid/globalTid carry the pid in bits 47..24
// but no host, so a report with a pid an earlier report has gets bits 63..48 of its own (its
// position among the inputs + 1, so 2, 3, ...; a report whose pids are new keeps its ids, nsys's
// local captures VM id 1). The pid itself, in PROCESSES.pid and in every PID column, is kept.
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
  // 0: the report's globalPid/globalTid are kept; else the value of their bits 63..48 in the
  // merged report (its pids collide with an earlier report's).
  uint16_t process_id_bits = 0;
};

// Reads and checks `paths` (at least two), in the order given.
Status ReadMergeInputs(const std::vector<std::string>& paths, std::vector<MergeInput>* out);

}  // namespace prof::merge
