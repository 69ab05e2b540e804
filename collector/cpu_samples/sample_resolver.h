// Turns the samples of a traced process tree into named stacks: keeps each process's address
// space from the kernel's mmap, exec and fork records (or reads /proc/<pid>/maps for a process it
// has no record of, or takes the address space read while the process ran) and resolves each
// sample's instruction pointers to functions and modules (collector/symbols/). The names live as
// long as the resolver. One thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "collector/perf_events/perf_attributes.h"
#include "collector/perf_events/perf_records.h"
#include "collector/symbols/dwarf_unwinder.h"
#include "collector/symbols/module_files.h"
#include "collector/symbols/process_table.h"
#include "collector/symbols/symbolizer.h"

namespace prof::collector {

struct SampleFrame {
  std::string_view symbol;
  std::string_view module;
  uint64_t ip = 0;
  bool unresolved = true;
  int32_t unwind_method = 0;  // ENUM_STACK_UNWIND_METHOD id
};

struct ResolvedSample {
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t cpu = 0;
  uint64_t time_ns = 0;             // CLOCK_MONOTONIC
  std::vector<SampleFrame> frames;  // leaf first
};

class SampleResolver {
 public:
  SampleResolver();

  void OnMmap(const perf::PerfMmap& mmap);
  void OnExec(uint32_t pid);
  void OnFork(uint32_t child, uint32_t parent);

  // A sample taken by the kernel, its stack as `backtrace` asked (regs_mask: the session's
  // sample_regs_user, for dwarf).
  void Resolve(const perf::PerfSample& sample, perf::PerfBacktrace backtrace, uint64_t regs_mask,
               ResolvedSample* out);
  // The address space of process `pid` as the records built it; null when none is known.
  const symbols::ProcessMaps* MapsOf(uint32_t pid) const {
    return processes_.Find(static_cast<int>(pid));
  }

  // Process `pid`'s address space as read while it ran (collector/cpu_samples/
  // drain_time_reads.h), for a process whose stacks may be named after it ended.
  void AdoptMaps(uint32_t pid, symbols::ProcessMaps maps) {
    processes_.Process(static_cast<int>(pid)) = std::move(maps);
  }

  // A sample whose stack is already a list of instruction pointers, leaf first (the program's
  // own frame-pointer walk).
  void ResolveChain(uint32_t pid, const uint64_t* ips, size_t count, int32_t unwind_method,
                    ResolvedSample* out);

  // A sample the program took of itself with its registers (protocol::kSampleRegisterCount, in
  // perf_event_x86_regs order) and a copy of its stack from the sampled stack pointer up: unwound
  // with each module's unwind tables, or by its frame pointers where it has none (libdwfl's own
  // fallback). Its frame-pointer walk (`fp_ips`) stands in where the unwinding found no caller.
  void ResolveStackCopy(uint32_t pid, const uint64_t* registers, const uint8_t* stack,
                        size_t stack_size, const uint64_t* fp_ips, size_t fp_count,
                        ResolvedSample* out);

 private:
  // Reads /proc/<pid>/maps when an address of the process is in none of its known mappings (a
  // process whose mappings came before sampling did, or a program that samples itself): at once
  // for an address in a 2 MiB region that has not missed in the last second, at most 8 times a
  // second per process. A library loaded since the last read (a dlopen right after start-up) is
  // found by its first sample; garbage addresses cost little.
  void LearnMappings(uint32_t pid, uint64_t ip);

  // Per process: the regions that missed in the current second, and the reads it made.
  struct Misses {
    uint64_t second_start_ns = 0;
    uint32_t snapshots = 0;
    std::unordered_set<uint64_t> regions;
  };

  symbols::ProcessTable processes_;
  symbols::ModuleFiles files_;
  symbols::Symbolizer symbolizer_;
  symbols::DwarfUnwinder unwinder_;
  std::unordered_map<uint32_t, Misses> misses_;  // by pid
  std::vector<uint64_t> ips_;                    // scratch
};

}  // namespace prof::collector
