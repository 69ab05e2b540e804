// Builds the NVTX records of injection/protocol/record_format.h and hands them to libprof_core's
// event stream. Callers read the clock first thing in the NVTX call and pass the timestamp, so a
// range's start is not delayed by prof's own work.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdint>

#include "injection/nvtx/nvtx_handles.h"
#include "injection/nvtx/utf8_text.h"
#include "injection/protocol/record_format.h"

namespace prof::injection::nvtx {

// kNvtxRangeStart or kNvtxMark with the program's attributes (category, colour, payload,
// message). `range_id`: the id a range start returned, 0 for a mark. Null or undersized
// attributes make an event without message or attributes.
void EmitEvent(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id, uint64_t range_id,
               const nvtxEventAttributes_t* attributes);

// A pushed range (`kind`: kNvtxPushPopRange, or kNvtxPushPopRangeTicks with `timestamp` in
// ticks; at `level`, the level the push returned), kept open on the calling thread until
// ClosePushPopRange; the attributes as for EmitEvent.
void OpenRange(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id, uint64_t level,
               const nvtxEventAttributes_t* attributes);

// As OpenRange, for a push whose only attribute is an ASCII message (nvtxRangePushA): the path of
// most ranges, without an attribute struct to decode. A null message makes a range without one.
void OpenTextRange(protocol::RecordKind kind, uint64_t timestamp, uint64_t domain_id,
                   uint64_t level, const char* message);

// kNvtxRangeEnd (`range_id`: the range's id).
void EmitRangeEnd(uint64_t timestamp, uint64_t domain_id, uint64_t range_id);

void EmitDomainCreate(uint64_t timestamp, const DomainHandle& domain);
void EmitDomainDestroy(uint64_t timestamp, uint64_t domain_id);
void EmitStringRegister(uint64_t timestamp, const StringHandle& string);
void EmitCategoryName(uint64_t timestamp, uint64_t domain_id, uint32_t category,
                      const Utf8Text& name);
void EmitThreadName(uint64_t timestamp, uint32_t tid, const Utf8Text& name);

}  // namespace prof::injection::nvtx
