// The summaries (trace_summary.py's lines) every export format must give for the stats tests'
// hand-made reports, worked out by hand from tests/stats/cuda_trace_fixture.h and nvtx_fixture.h.
#pragma once

#include "tests/export/export_test_util.h"

namespace prof::exporter::test {

// MakeCudaTraceReport: T1 = 100/1 "main", T2 = 100/2, P2 = 200/1; GPU 0 is pseudo-process
// 16777216 with streams 7 and 8 of pid 100 and 9 of pid 200 as its threads 33554433, 33554434,
// 33554435 (2^25 + 1, 2, 3).
Lines CudaFixtureSummary();
// MakeNvtxReport: T1 = 100/1, T2 = 100/2, T5 = 200/5, no names.
Lines NvtxFixtureSummary();

}  // namespace prof::exporter::test
