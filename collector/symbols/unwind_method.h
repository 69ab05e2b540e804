// How a sample's call stack was obtained, numbered as nsys's ENUM_STACK_UNWIND_METHOD so that the
// ids written into a report's sampling tables mean the same in prof's reports and nsys's exports.
// Only the methods prof uses are named; never renumber them.
#pragma once

#include <cstdint>

namespace prof::symbols {

enum class UnwindMethod : int32_t {
  kUnknown = 0,
  kFramePointer = 1,  // perf's PERF_SAMPLE_CALLCHAIN (--backtrace=fp)
  kDwarfEh = 6,       // DwarfUnwinder over PERF_SAMPLE_REGS_USER + STACK_USER (--backtrace=dwarf)
};

}  // namespace prof::symbols
