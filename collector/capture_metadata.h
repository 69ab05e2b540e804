// META_DATA_CAPTURE rows for the capture control settings and the windows a report covers, so that
// scripts can tell a windowed report from a whole-program one (docs/capture.md lists the names).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/capture_options.h"
#include "collector/capture_router.h"
#include "storage/report_writer.h"

namespace prof::collector {

// The windows whose events report `report` holds: its own with repeat, otherwise all of them.
std::vector<CaptureRouter::Window> ReportWindows(const CaptureRouter& router, size_t report,
                                                 bool repeats);

// The option values as the command line spells them.
std::string KillText(int signal);
std::string CaptureRangeText(protocol::CaptureRange range);
std::string CaptureRangeEndText(const CaptureOptions& options);
std::string NvtxCaptureText(const CaptureOptions& options);

// Nothing for a whole-program capture. Window times are written in report time (ns since the
// session start); an open window's stop is left out.
void RecordCaptureControl(const CaptureOptions& options,
                          const std::vector<CaptureRouter::Window>& windows,
                          uint64_t session_start_ns, storage::ReportWriter* writer);

}  // namespace prof::collector
