// `prof merge` as a library call: combines several reports (prof's or nsys SQLite exports of one
// schema version) into one report in the same schema, with every process of every input.
//
// Contract:
// - Inputs are only read (merge_inputs.h lists the checks that fail before anything is written).
// - Time base: each report's timestamps count from its own session start
//   (TARGET_INFO_SESSION_START_TIME.utcEpochNs). The merged report's zero is the earliest of
//   them, and each input's times are shifted by its start minus that one. On one host the starts
//   come from one clock, so the alignment is exact; across hosts it is only as good as the
//   agreement of their clocks (NTP/PTP), which the caller says in its message.
// - StringIds are renumbered (merged_strings.h) and every StringIds column is remapped; tables are
//   carried by merge_table_plan.h, each in one INSERT ... SELECT from the attached input.
// - The output is written under `<output>.partial-<pid>` and renamed into place when complete;
//   on any failure nothing is left under either name. An existing output is an error unless
//   `force_overwrite`; an output that is one of the inputs always is.
// - Errors are one-line Status messages without the "prof: error: " prefix.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace prof::merge {

struct MergeOptions {
  std::vector<std::string> inputs;  // two or more report files
  std::string output;               // ".sqlite" is appended when missing
  bool force_overwrite = false;
};

struct MergeOutcome {
  std::string output_path;                   // the report written
  std::vector<int64_t> offsets_ns;           // per input: its session start minus the earliest
  std::vector<std::string> left_out_tables;  // input tables merge cannot carry, each once
};

Status RunMerge(const MergeOptions& options, MergeOutcome* outcome);

}  // namespace prof::merge
