// What `prof profile` was asked to sample: -s/--sample, --sampling-frequency (or
// --sampling-period), -b/--backtrace and --cpuctxsw, parsed by cli/profile_command.
#pragma once

#include <cstdint>

#include "collector/perf_events/perf_attributes.h"

namespace prof::collector {

struct SamplingOptions {
  bool samples = false;  // -s process-tree: CPU samples of every thread of the process tree
  uint32_t frequency_hz = 1000;
  perf::PerfBacktrace backtrace = perf::PerfBacktrace::kDwarf;  // -b auto
  bool context_switches = false;                                // --cpuctxsw=process-tree
  bool python_frames = false;  // --python-sampling: Python frames in samples of Python code
  // On because -s was not given (nsys's default): where perf_event_open is refused, sampling and
  // scheduling go off with a warning, as in nsys, rather than the program sampling itself with a
  // timer signal, which only an explicit -s process-tree asks for.
  bool by_default = false;

  bool any() const { return samples || context_switches; }
};

}  // namespace prof::collector
