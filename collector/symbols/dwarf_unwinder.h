// DWARF (CFI) unwinding of samples taken with --backtrace=dwarf: from a sample's user registers
// and its copy of the user stack, the return addresses of the call stack, leaf first, as perf
// report --call-graph=dwarf computes them, after the process may have exited.
//
// One libdwfl session per process address space (pid + ProcessMaps::generation), holding every
// file mapped in that process at its load bias, with prof's Dwfl_Thread_Callbacks attached:
//   - the initial registers are the sample's (perf's x86-64 order mapped to DWARF's numbering);
//   - memory reads are served from the copied stack; a read outside it is served from the mapped
//     file when the mapping is read-only file contents, and fails otherwise;
//   - CFI comes from each file's .eh_frame / .debug_frame (or a separate debug file); without
//     CFI, libdwfl's x86-64 fallback follows the frame pointer.
// Unwinding stops at the first frame it cannot unwind, at a zero or repeated frame, or at
// `max_frames`: garbage registers or stacks give a short result, never a crash.
//
// Files come from a ModuleFiles shared with the Symbolizer (each opened once). Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "collector/symbols/dwfl_reporting.h"
#include "collector/symbols/module_files.h"
#include "collector/symbols/process_table.h"
#include "collector/symbols/user_registers.h"

namespace prof::symbols {

class DwarfUnwinder {
 public:
  // Both must outlive the DwarfUnwinder.
  DwarfUnwinder(const ProcessTable& processes, ModuleFiles& files);
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  // The instruction addresses of the stack, leaf (registers' IP) first, at most `max_frames`.
  // `stack` holds the user stack's bytes from address `stack_start_sp` up (perf's
  // PERF_SAMPLE_STACK_USER data, its dyn_size bytes; normally stack_start_sp == registers' SP).
  // Return addresses are as found: resolve them as callers (Symbolizer::ResolveStack).
  // Empty only when max_frames is 0.
  std::vector<uint64_t> Unwind(int pid, const UserRegisters& registers, ByteSpan stack,
                               uint64_t stack_start_sp, size_t max_frames);

  struct Session;  // one process address space's Dwfl (dwarf_unwinder.cpp)

 private:
  Session* SessionFor(int pid, const ProcessMaps& maps);

  const ProcessTable& processes_;
  ModuleFiles& files_;
  std::unordered_map<int, std::unique_ptr<Session>> sessions_;
};

}  // namespace prof::symbols
