// NVTX ranges that open and close capture windows (`--capture-range=nvtx -p RANGE[@DOMAIN]`).
//
// A matching push or range start opens a window at its own timestamp, before its record is
// emitted, and the pop or end of that same range closes it at its timestamp, after its record: the
// triggering range is inside its window, as in nsys. The window belongs to the range that opened
// it: the same thread, domain and level (push/pop), or the same range id (start/end, from any
// thread). Other matching ranges while a window is open change nothing. Without
// --capture-range=nvtx every hook returns after one load.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdint>

namespace prof::injection::nvtx {

void CaptureOnPush(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes,
                   int32_t level, uint64_t now_ns);
void CaptureOnPop(nvtxDomainHandle_t domain, int32_t level, uint64_t now_ns);
void CaptureOnRangeStart(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes,
                         uint64_t range_id, uint64_t now_ns);
void CaptureOnRangeEnd(nvtxDomainHandle_t domain, uint64_t range_id, uint64_t now_ns);

}  // namespace prof::injection::nvtx
