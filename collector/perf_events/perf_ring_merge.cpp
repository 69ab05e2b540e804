#include "collector/perf_events/perf_ring_merge.h"

#include <functional>
#include <queue>
#include <utility>

namespace prof::collector::perf {
namespace {

// A ring's next decodable record, held until the merge delivers it (its spans point into the ring
// or the ring's scratch, which the ring reuses only when asked for the next record).
struct Cursor {
  PerfRing* ring = nullptr;
  PerfRecord record;
};

// Moves `cursor` to its ring's next decodable record; false at the end of the pass. Unknown and
// malformed records are counted and skipped.
bool Advance(Cursor* cursor, const PerfRecordLayout& layout, PerfCounters* counters) {
  PerfSpan<uint8_t> bytes;
  while (cursor->ring->Next(&bytes, &counters->malformed_ring_bytes)) {
    switch (DecodePerfRecord(bytes.data, bytes.size, layout, &cursor->record)) {
      case PerfDecodeResult::kDecoded:
        return true;
      case PerfDecodeResult::kUnknownType:
        ++counters->unknown_records;
        break;
      case PerfDecodeResult::kMalformed:
        ++counters->malformed_records;
        break;
    }
  }
  return false;
}

}  // namespace

size_t DrainRingsInTimeOrder(const std::vector<PerfRing*>& rings, const PerfRecordLayout& layout,
                             PerfRecordSink& sink, PerfCounters* counters) {
  std::vector<Cursor> cursors(rings.size());
  // (time, ring index), smallest first.
  using Key = std::pair<uint64_t, size_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> next;
  for (size_t i = 0; i < rings.size(); ++i) {
    cursors[i].ring = rings[i];
    rings[i]->BeginPass();
    if (Advance(&cursors[i], layout, counters)) next.emplace(PerfRecordTime(cursors[i].record), i);
  }
  size_t delivered = 0;
  while (!next.empty()) {
    const size_t i = next.top().second;
    next.pop();
    DeliverPerfRecord(cursors[i].record, sink, counters);
    ++delivered;
    if (Advance(&cursors[i], layout, counters)) next.emplace(PerfRecordTime(cursors[i].record), i);
  }
  for (PerfRing* ring : rings) ring->EndPass();
  return delivered;
}

}  // namespace prof::collector::perf
