// Recording a traced call, and turning tracing on at process start.
#include "injection/osrt/call_tracer.h"

#include <cerrno>

#include "injection/core/event_stream.h"
#include "injection/osrt/call_backtrace.h"
#include "injection/osrt/next_functions.h"

namespace prof::injection::osrt {
namespace {

// Busy wait of the counter calibration at process start: short enough not to be noticed, long
// enough for a rate good to ~1e-4; MaybeRefine improves it as the program runs.
constexpr uint64_t kCalibrationWindowNs = 200'000;

}  // namespace

TracerState g_tracer;
__thread ThreadState t_thread __attribute__((tls_model("initial-exec"))) = {0, false};

__attribute__((noinline)) void RecordCall(const CallTiming& timing, uint64_t end_ticks,
                                          uint16_t function_id, int64_t return_value) {
  const uint64_t end_ns = MonotonicNowNs();
  const int64_t elapsed_ticks = static_cast<int64_t>(end_ticks - timing.start_ticks);
  if (elapsed_ticks < 0) return;
  ThreadState& thread = t_thread;
  const int saved_errno = errno;
  thread.recording = true;
  if (StreamEnabled() && !InsideInternalCall()) {
    const uint64_t duration_ns = g_tracer.clock.TicksToNs(static_cast<uint64_t>(elapsed_ticks));
    protocol::OsrtCallRecord record{};
    record.header.kind = protocol::RecordKind::kOsrtCall;
    record.header.timestamp_ns = duration_ns < end_ns ? end_ns - duration_ns : 0;
    record.end_ns = end_ns;
    record.return_value = return_value;
    record.function_id = function_id;
    record.nesting_level = static_cast<uint8_t>(timing.level < 255 ? timing.level : 255);
    if (static_cast<uint64_t>(elapsed_ticks) >= g_tracer.backtrace_threshold_ticks) {
      // Native return addresses, then (code, instruction) pairs of Python frames.
      uint64_t stack[protocol::kMaxOsrtBacktraceDepth * 3];
      const size_t native =
          CaptureNativeFrames(__builtin_frame_address(0), stack, g_tracer.backtrace_depth);
      const size_t python = CapturePythonFrames(stack + native, g_tracer.backtrace_depth);
      record.native_frame_count = static_cast<uint8_t>(native);
      record.python_frame_count = static_cast<uint8_t>(python);
      EmitRecordWithText(&record.header, sizeof(record), reinterpret_cast<const char*>(stack),
                         (native + 2 * python) * sizeof(uint64_t));
    } else {
      EmitRecord(&record.header, sizeof(record));
    }
    g_tracer.clock.MaybeRefine(end_ns);
  }
  thread.recording = false;
  errno = saved_errno;
}

namespace {

// Runs after libprof_core.so's constructor (a dependency of this library), so Settings() is
// decoded and the stream connected. Calls made before this point pass through untraced.
__attribute__((constructor)) void StartOsrtTracing() {
  ResolveAllNextFunctions();
  const protocol::InjectionSettings& settings = Settings();
  if (!settings.traces(protocol::kTraceOsrt)) return;
  g_tracer.clock.Calibrate(TscClock::Source::kCounter, kCalibrationWindowNs);
  g_tracer.threshold_ticks = g_tracer.clock.NsToTicks(settings.osrt_threshold_ns);
  if (settings.osrt_backtrace_threshold_ns != 0 && settings.osrt_backtrace_depth != 0) {
    g_tracer.backtrace_threshold_ticks =
        g_tracer.clock.NsToTicks(settings.osrt_backtrace_threshold_ns);
    g_tracer.backtrace_depth = settings.osrt_backtrace_depth;
  }
  g_tracer.active.store(true, std::memory_order_release);
}

}  // namespace
}  // namespace prof::injection::osrt
