// One drain pass over several rings (one per CPU): every record each ring holds when the pass
// starts is decoded and delivered in timestamp order across the rings.
//
// Order: each ring's records arrive in the order the kernel wrote them, which is time order on one
// CPU; the pass merges the rings' sequences (k-way merge, ties go to the lower ring index). Records
// written after a ring's pass started belong to the next pass, so a later pass can deliver a record
// older than one an earlier pass delivered from another CPU: a consumer that needs a global order
// sorts within a window (a few ms covers the gap between two passes' snapshots of the heads).
#pragma once

#include <cstddef>
#include <vector>

#include "collector/perf_events/perf_record_parser.h"
#include "collector/perf_events/perf_records.h"
#include "collector/perf_events/perf_ring.h"

namespace prof::collector::perf {

// Returns the number of records delivered; counts them, unknown and malformed ones in `counters`.
// The rings' space is handed back to the kernel when the pass ends.
size_t DrainRingsInTimeOrder(const std::vector<PerfRing*>& rings, const PerfRecordLayout& layout,
                             PerfRecordSink& sink, PerfCounters* counters);

}  // namespace prof::collector::perf
