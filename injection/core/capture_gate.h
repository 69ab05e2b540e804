// The injection's side of capture control (injection/protocol/capture_control.h): maps the
// launcher's shared page at process start and answers, for every record, whether it may be sent.
//
// Without a page (a launcher that made none, or mapping failed) everything is recorded, as before
// capture control existed. The mapping is shared with fork children; an exec'd child maps it anew.
#pragma once

#include <atomic>

#include "injection/core/event_stream.h"
#include "injection/protocol/capture_control.h"

namespace prof::injection {

// Maps the page next to `socket_path`; leaves everything recorded when that fails. Called once,
// from libprof_core's constructor.
void MapCapturePage(const char* socket_path);

// The calling process's capture page, or nullptr when it has none. For the tracers that open and
// close capture windows (NVTX ranges, cudaProfilerStart/Stop).
PROF_EXPORT protocol::CaptureControl* CapturePage();

// Points at the page's `state`, or at a flag that is always kCaptureOn. Internal to libprof_core.
extern std::atomic<uint32_t>* g_capture_state;

// Emit's check, on every record: one relaxed load while recording; the kind is looked at only
// between windows, when program-thread events are dropped before they reach the ring.
inline bool CaptureAllows(protocol::RecordKind kind) {
  return g_capture_state->load(std::memory_order_relaxed) == protocol::kCaptureOn ||
         protocol::CaptureRoleOf(kind) != protocol::CaptureRole::kProgramEvent;
}

}  // namespace prof::injection
