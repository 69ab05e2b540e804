// Writes a named stack as the frame rows of a callchain table (SAMPLING_CALLCHAINS of a CPU
// sample, OSRT_CALLCHAINS of an OS-runtime call's backtrace: the same columns), stackDepth 0 the
// innermost frame.
#pragma once

#include <cstdint>
#include <vector>

#include "collector/cpu_samples/sample_resolver.h"
#include "storage/report_writer.h"
#include "storage/tables/host_tables.h"

namespace prof::collector {

template <const auto& kCallchainTable>
void WriteCallchain(storage::ReportWriter* writer, int64_t id,
                    const std::vector<SampleFrame>& frames) {
  for (size_t depth = 0; depth < frames.size(); ++depth) {
    const SampleFrame& frame = frames[depth];
    storage::SamplingFrameRow row;
    row.id = id;
    row.symbol = writer->InternString(frame.symbol);
    row.module = writer->InternString(frame.module);
    row.unresolved = frame.unresolved ? 1 : 0;
    row.original_ip = static_cast<int64_t>(frame.ip);
    row.unwind_method = frame.unwind_method;
    row.stack_depth = static_cast<int32_t>(depth);
    writer->Add<kCallchainTable>(row);
  }
}

}  // namespace prof::collector
