// Capture control: when the traced processes record (`--delay`, `--duration`, `--capture-range`).
//
// The launcher owns one shared page, the file kCaptureControlFile next to its socket (same private
// directory), which every injected process maps read-write at start. The launcher fills the
// configuration before the program runs; after that the page is shared state:
// - `state` is the flag the injection's Emit reads on every record (one relaxed load of a cache
//   line that changes only when a window opens or closes). Records of kind role kProgramEvent are
//   not even written to the ring while it is not kCaptureOn.
// - `windows` is a ring of capture windows [start_ns, stop_ns] in CLOCK_MONOTONIC ns, opened and
//   closed by whoever triggers them: the launcher (delay, duration) or a program thread (NVTX
//   range, cudaProfilerStart/Stop). The launcher routes every timed record to the window holding
//   its timestamp, one report per window with --capture-range-end=repeat.
// Opening and closing go through TryOpenWindow/TryCloseWindow below, lock-free and safe across
// processes (the atomics are address-free), so both sides follow the same protocol.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "injection/protocol/record_format.h"

namespace prof::protocol {

inline constexpr const char* kCaptureControlFile = "capture";
inline constexpr uint32_t kCaptureMagic = 0x50414350;  // "PCAP"
inline constexpr uint32_t kCaptureVersion = 1;
inline constexpr uint32_t kMaxCaptureWindows = 128;  // ring slots; the launcher reads far faster
inline constexpr size_t kMaxCaptureText = 1024;

// --capture-range: what opens and closes windows besides the launcher's timers.
enum class CaptureRange : uint32_t { kNone = 0, kCudaProfilerApi = 1, kNvtx = 2 };

enum CaptureState : uint32_t {
  kCaptureOff = 0,   // between windows (or before the first)
  kCaptureOn = 1,    // recording
  kCaptureBusy = 2,  // a window is being opened or closed
  kCaptureDone = 3,  // the last window closed: nothing opens any more
};

struct CaptureWindow {
  std::atomic<uint64_t> start_ns;
  std::atomic<uint64_t> stop_ns;  // 0 while open
};

struct CaptureControl {
  // Configuration, written by the launcher before the program starts.
  uint32_t magic;
  uint32_t version;
  CaptureRange range;
  uint32_t max_windows;                // 0: unlimited (repeat without :N)
  uint32_t nvtx_any_domain;            // -p RANGE@*: the range in any domain
  uint32_t nvtx_default_domain;        // -p RANGE: only in NVTX's default domain
  char nvtx_message[kMaxCaptureText];  // UTF-8, NUL-terminated
  char nvtx_domain[kMaxCaptureText];   // -p RANGE@DOMAIN
  // Shared state. `state` has a cache line of its own: it is read on every record.
  alignas(64) std::atomic<uint32_t> state;
  alignas(64) std::atomic<uint32_t> armed;  // triggers in the program count only once armed
  std::atomic<uint32_t> windows_opened;
  CaptureWindow windows[kMaxCaptureWindows];
};
static_assert(std::atomic<uint32_t>::is_always_lock_free &&
                  std::atomic<uint64_t>::is_always_lock_free,
              "the page's atomics must work across processes");
inline constexpr size_t kCaptureControlSize = 8192;
static_assert(sizeof(CaptureControl) <= kCaptureControlSize);

// The page's path: kCaptureControlFile in the directory of `socket_path`. Allocation-free for the
// injection's constructor; false when `out` (NUL included) is too small.
inline bool CaptureControlPath(const char* socket_path, char* out, size_t capacity) {
  const char* slash = std::strrchr(socket_path, '/');
  const size_t directory = slash == nullptr ? 0 : static_cast<size_t>(slash - socket_path) + 1;
  const size_t name = std::strlen(kCaptureControlFile);
  if (directory + name + 1 > capacity) return false;
  std::memcpy(out, socket_path, directory);
  std::memcpy(out + directory, kCaptureControlFile, name + 1);
  return true;
}

inline CaptureWindow& WindowSlot(CaptureControl* control, uint32_t index) {
  return control->windows[index % kMaxCaptureWindows];
}

// Opens window number windows_opened at `now_ns` when armed and between windows. Returns the new
// window's index, or -1 when nothing opened (not armed, already on, or the last window is done).
inline int64_t TryOpenWindow(CaptureControl* control, uint64_t now_ns) {
  if (control->armed.load(std::memory_order_acquire) == 0) return -1;
  uint32_t expected = kCaptureOff;
  if (!control->state.compare_exchange_strong(expected, kCaptureBusy, std::memory_order_acq_rel)) {
    return -1;
  }
  const uint32_t index = control->windows_opened.load(std::memory_order_relaxed);
  if (control->max_windows != 0 && index >= control->max_windows) {
    control->state.store(kCaptureDone, std::memory_order_release);
    return -1;
  }
  CaptureWindow& window = WindowSlot(control, index);
  window.stop_ns.store(0, std::memory_order_relaxed);
  window.start_ns.store(now_ns, std::memory_order_relaxed);
  control->windows_opened.store(index + 1, std::memory_order_release);
  control->state.store(kCaptureOn, std::memory_order_release);
  return index;
}

// Closes window `index` at `now_ns` if it is the open one. The last window of max_windows leaves
// the state kCaptureDone, so that nothing reopens. Returns true when this call closed it.
inline bool TryCloseWindow(CaptureControl* control, uint32_t index, uint64_t now_ns) {
  uint32_t expected = kCaptureOn;
  if (!control->state.compare_exchange_strong(expected, kCaptureBusy, std::memory_order_acq_rel)) {
    return false;
  }
  const uint32_t opened = control->windows_opened.load(std::memory_order_relaxed);
  if (opened != index + 1) {  // another window than the caller's is open now
    control->state.store(kCaptureOn, std::memory_order_release);
    return false;
  }
  WindowSlot(control, index).stop_ns.store(now_ns, std::memory_order_release);
  const bool last = control->max_windows != 0 && opened >= control->max_windows;
  control->state.store(last ? kCaptureDone : kCaptureOff, std::memory_order_release);
  return true;
}

// How capture control treats each record kind, in the injection (Emit) and in the launcher.
enum class CaptureRole : uint8_t {
  kDefinition,      // names and handles: always sent; every report gets them, later ones too
  kStreamNotice,    // drop counts, process exit: always sent; to the reports open on arrival
  kProgramEvent,    // happens on a program thread: sent only while kCaptureOn; routed by time
  kDeliveredLater,  // GPU activity CUPTI delivers after the fact: always sent; routed by time
};

constexpr CaptureRole CaptureRoleOf(RecordKind kind) {
  switch (kind) {
    case RecordKind::kDroppedRecords:
    case RecordKind::kRecordsWithoutRing:
    case RecordKind::kNvtxRangesTooDeep:
    case RecordKind::kTornRecords:
    case RecordKind::kRingSegment:  // reaches the launcher's trackers only when it failed
    case RecordKind::kProcessExit:
    case RecordKind::kProcessKilled:
    case RecordKind::kCudaDroppedRecords:
      return CaptureRole::kStreamNotice;
    case RecordKind::kOsrtCall:
    case RecordKind::kNvtxPushPopRange:
    case RecordKind::kNvtxPushPopRangeTicks:
    case RecordKind::kNvtxRangeStart:
    case RecordKind::kNvtxRangeEnd:
    case RecordKind::kNvtxMark:
    case RecordKind::kCudaApiCall:
    case RecordKind::kCudaApiCallWithStack:
    case RecordKind::kCudaGraphLaunch:
    case RecordKind::kCudaGraphEvent:
    case RecordKind::kCudaSync:
    case RecordKind::kCudaEvent:
    case RecordKind::kCpuSample:
      return CaptureRole::kProgramEvent;
    case RecordKind::kCudaKernel:
    case RecordKind::kCudaMemcpy:
    case RecordKind::kCudaMemset:
    case RecordKind::kCudaGraphTrace:
    case RecordKind::kCudaMemory:
      return CaptureRole::kDeliveredLater;
    case RecordKind::kStreamHello:
    case RecordKind::kThreadName:
    case RecordKind::kProcessRank:
    case RecordKind::kDrainRequest:
    case RecordKind::kNvtxDomainCreate:
    case RecordKind::kNvtxDomainDestroy:
    case RecordKind::kNvtxStringRegister:
    case RecordKind::kNvtxCategoryName:
    case RecordKind::kNvtxLibraryDomain:
    case RecordKind::kCudaInitStatus:
    case RecordKind::kCudaApiName:
    case RecordKind::kCudaString:
    case RecordKind::kCudaDevice:
    case RecordKind::kCudaContext:
    case RecordKind::kCudaStream:
    case RecordKind::kCudaPythonStack:
      return CaptureRole::kDefinition;
  }
  // No default above: a new kind must be given its role (-Wswitch). A value no kind has (a newer
  // injection's) defines, as the readers skip it anyway.
  return CaptureRole::kDefinition;
}

}  // namespace prof::protocol
