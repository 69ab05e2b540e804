// Decodes one record of a perf_event_open ring (struct perf_event_header and what follows, as
// `man perf_event_open` lays it out) into the typed structs of perf_records.h. Pure functions over
// bytes: the tests feed hand-built records, no kernel needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <variant>

#include "collector/perf_events/perf_records.h"

namespace prof::collector::perf {

// What the event's attributes put into each record; the decoder needs it because records carry no
// self-description.
struct PerfRecordLayout {
  uint64_t sample_type = 0;     // PERF_SAMPLE_* bits; also which sample_id fields trail side-band
  uint64_t regs_user_mask = 0;  // with PERF_SAMPLE_REGS_USER: which registers a sample holds
};

using PerfRecord =
    std::variant<PerfSample, PerfSwitch, PerfComm, PerfTask, PerfMmap, PerfLost, PerfThrottle>;

enum class PerfDecodeResult {
  kDecoded,
  kUnknownType,  // a record type this decoder does not know (skip it by its size)
  kMalformed,    // shorter than its type and layout need, or a layout the decoder cannot read
};

// `bytes` holds one whole record, header included (`size` = header.size), 8-byte aligned. Spans
// in `*record` point into `bytes`.
PerfDecodeResult DecodePerfRecord(const uint8_t* bytes, size_t size, const PerfRecordLayout& layout,
                                  PerfRecord* record);

// The sample_id time of a decoded record (the merge key).
uint64_t PerfRecordTime(const PerfRecord& record);

// Calls the sink method of the record's type and counts it in `counters` (records, samples,
// losses, throttles).
void DeliverPerfRecord(const PerfRecord& record, PerfRecordSink& sink, PerfCounters* counters);

}  // namespace prof::collector::perf
