// NVTX ranges that open and close capture windows (`--capture-range=nvtx -p RANGE[@DOMAIN]`).
//
// A matching push or range start opens a window at its own timestamp, before its record is
// emitted, and the pop or end of that same range closes it at its timestamp, after its record: the
// triggering range is inside its window, as in nsys. The window belongs to the range that opened
// it: the same thread, domain and level (push/pop), or the same range id (start/end, from any
// thread). Other matching ranges while a window is open change nothing.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cstdint>

namespace prof::injection::nvtx {

// Reads the capture page's range kind and NSYS_NVTX_PROFILER_REGISTER_ONLY, once, before the first
// NVTX call is routed to prof (the page is mapped by libprof_core's constructor). NVTX calls it
// once per NVTX instance, possibly on several threads: the first arms, the others return.
void ArmCaptureTriggers();

// Whether ranges open capture windows (--capture-range=nvtx): kWindowTriggersOn once armed with
// the trigger published. The hooks below are inline so that without it a push or pop pays one
// load for them.
enum WindowTriggers : uint8_t {
  kWindowTriggersUnarmed = 0,
  kWindowTriggersArming = 1,
  kWindowTriggersOff = 2,
  kWindowTriggersOn = 3,
};
inline std::atomic<uint8_t> g_window_triggers{kWindowTriggersUnarmed};

inline bool RangesOpenWindows() {
  return g_window_triggers.load(std::memory_order_acquire) == kWindowTriggersOn;
}

void OpenWindowFor(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes, bool push,
                   uint64_t key, uint64_t now_ns);
void CloseWindowFor(nvtxDomainHandle_t domain, bool push, uint64_t key, uint64_t now_ns);

inline void CaptureOnPush(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes,
                          int32_t level, uint64_t now_ns) {
  if (RangesOpenWindows()) {
    OpenWindowFor(domain, attributes, true, static_cast<uint64_t>(level), now_ns);
  }
}
inline void CaptureOnPop(nvtxDomainHandle_t domain, int32_t level, uint64_t now_ns) {
  if (RangesOpenWindows()) CloseWindowFor(domain, true, static_cast<uint64_t>(level), now_ns);
}
inline void CaptureOnRangeStart(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes,
                                uint64_t range_id, uint64_t now_ns) {
  if (RangesOpenWindows()) OpenWindowFor(domain, attributes, false, range_id, now_ns);
}
inline void CaptureOnRangeEnd(nvtxDomainHandle_t domain, uint64_t range_id, uint64_t now_ns) {
  if (RangesOpenWindows()) CloseWindowFor(domain, false, range_id, now_ns);
}

}  // namespace prof::injection::nvtx
