// The steady state of a report: its repeating NVTX range (a training step, found by
// windows/steady_state.sql) and the time from its first instance after the first `warmup` ones to
// the end of its last instance, as a profiler schedule skips warm-up steps. prof analyze's rules
// (step=, warmup=) and the stats reports that summarize the steady state read it from here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

struct SteadyState {
  std::string name;  // as nvtx_ranges names ranges: "<domain>:<text>"
  int64_t instances = 0;
  std::optional<int64_t> start;  // unset when warmup skips every instance
  int64_t end = 0;
  std::optional<double> median_duration;  // of the instances after the warm-up
};

// `step`: the range's name (":<text>" may be given as "<text>"); unset: the name with at least 3
// instances whose instances add up to the most time. `*out` stays unset when the file has no
// NVTX_EVENTS table or no such range.
Status FindSteadyState(storage::Database* db, const std::optional<std::string>& step,
                       int64_t warmup, std::optional<SteadyState>* out);

// Fills the TEMP table analysis_steady_state(name, instances, skipped, start, end,
// medianDuration, steps) with `steady` (no row when unset; skipped = `warmup`), which the SQL of
// prof analyze's rules and of steady-state stats reports reads. `steps`: the instances in the
// analyzed window, unset when the window was given explicitly.
Status StoreSteadyState(storage::Database* db, const std::optional<SteadyState>& steady,
                        int64_t warmup, std::optional<int64_t> steps);

}  // namespace prof::stats
