#include "collector/capture_metadata.h"

#include <signal.h>

namespace prof::collector {

std::vector<CaptureRouter::Window> ReportWindows(const CaptureRouter& router, size_t report,
                                                 bool repeats) {
  if (!repeats) return router.windows();
  if (report >= router.windows().size()) return {};
  return {router.windows()[report]};
}

std::string KillText(int signal) {
  if (signal == 0) return "none";
  if (signal == SIGTERM) return "sigterm";
  if (signal == SIGKILL) return "sigkill";
  return std::to_string(signal);
}

std::string CaptureRangeText(protocol::CaptureRange range) {
  switch (range) {
    case protocol::CaptureRange::kCudaProfilerApi:
      return "cudaProfilerApi";
    case protocol::CaptureRange::kNvtx:
      return "nvtx";
    case protocol::CaptureRange::kNone:
      break;
  }
  return "none";
}

std::string CaptureRangeEndText(const CaptureOptions& options) {
  const std::string count =
      options.max_windows == 0 ? "" : ":" + std::to_string(options.max_windows);
  switch (options.range_end) {
    case CaptureRangeEnd::kStop:
      return "stop";
    case CaptureRangeEnd::kStopShutdown:
      return "stop-shutdown";
    case CaptureRangeEnd::kRepeat:
      return "repeat" + count;
    case CaptureRangeEnd::kRepeatShutdown:
      return "repeat-shutdown" + count;
  }
  return "";
}

std::string NvtxCaptureText(const CaptureOptions& options) {
  if (options.nvtx_any_domain) return options.nvtx_message + "@*";
  if (options.nvtx_domain.empty()) return options.nvtx_message;
  return options.nvtx_message + "@" + options.nvtx_domain;
}

void RecordCaptureControl(const CaptureOptions& options,
                          const std::vector<CaptureRouter::Window>& windows,
                          uint64_t session_start_ns, storage::ReportWriter* writer) {
  if (options.whole_program()) return;  // whole-program reports look as they always did
  writer->Add<storage::kMetaDataCaptureTable>(
      {"DELAY_MS", std::to_string(options.delay_ns / 1'000'000)});
  if (options.duration_ns > 0) {
    writer->Add<storage::kMetaDataCaptureTable>(
        {"DURATION_MS", std::to_string(options.duration_ns / 1'000'000)});
  }
  writer->Add<storage::kMetaDataCaptureTable>({"KILL_SIGNAL", KillText(options.kill_signal)});
  writer->Add<storage::kMetaDataCaptureTable>({"CAPTURE_RANGE", CaptureRangeText(options.range)});
  if (options.range != protocol::CaptureRange::kNone) {
    writer->Add<storage::kMetaDataCaptureTable>(
        {"CAPTURE_RANGE_END", CaptureRangeEndText(options)});
  }
  if (options.range == protocol::CaptureRange::kNvtx) {
    writer->Add<storage::kMetaDataCaptureTable>({"NVTX_CAPTURE", NvtxCaptureText(options)});
  }
  for (const CaptureRouter::Window& window : windows) {
    writer->Add<storage::kMetaDataCaptureTable>(
        {"CAPTURE_WINDOW_START_NS", std::to_string(window.start_ns - session_start_ns)});
    if (window.stop_ns != 0) {
      writer->Add<storage::kMetaDataCaptureTable>(
          {"CAPTURE_WINDOW_STOP_NS", std::to_string(window.stop_ns - session_start_ns)});
    }
  }
}

}  // namespace prof::collector
