#include "collector/counter_time_sink.h"

#include <cstring>

namespace prof::collector {

using protocol::NvtxEventRecord;
using protocol::NvtxRangeEnding;
using protocol::RecordKind;

void CounterTimeSink::OnRecord(const ProcessStream& process, const protocol::RecordHeader& record) {
  // A record too short for its kind goes on as it is, for the dispatcher to count.
  if (record.kind != RecordKind::kNvtxPushPopRangeTicks || record.size < sizeof(NvtxEventRecord)) {
    return next_->OnRecord(process, record);
  }
  converted_.resize((record.size + sizeof(uint64_t) - 1) / sizeof(uint64_t));
  std::memcpy(converted_.data(), &record, record.size);
  auto* range = reinterpret_cast<NvtxEventRecord*>(converted_.data());
  range->header.kind = RecordKind::kNvtxPushPopRange;
  range->header.timestamp_ns = clock_.ToMonotonicNs(range->header.timestamp_ns);
  // A range open at a normal exit has no end (0) to convert.
  if (range->ending == NvtxRangeEnding::kPopped || range->ending == NvtxRangeEnding::kOpenAtDeath) {
    range->end_ns = clock_.ToMonotonicNs(range->end_ns);
  }
  next_->OnRecord(process, range->header);
}

}  // namespace prof::collector
