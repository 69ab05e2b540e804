// How sampling options become perf_event_attr fields, ring sizes and CPU lists. Pure functions
// (apart from reading /sys and /proc settings), so the choices are tested without opening events.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collector/perf_events/perf_record_parser.h"
#include "common/status.h"

namespace prof::collector::perf {

enum class PerfBacktrace {
  kNone,          // the sampled ip only
  kFramePointer,  // the kernel walks the user frame-pointer chain (PERF_SAMPLE_CALLCHAIN)
  kDwarf,         // user registers + a copy of the user stack, unwound later (REGS_USER+STACK_USER)
};

struct PerfSamplingOptions {
  uint32_t frequency_hz = 1000;  // samples per second of CPU time per thread; 1..100000
  PerfBacktrace backtrace = PerfBacktrace::kFramePointer;
  uint32_t stack_bytes = 16384;  // kDwarf: user stack bytes per sample; multiple of 8, <= 65528
  // kFramePointer: frames per callchain, clamped to /proc/sys/kernel/perf_event_max_stack.
  uint32_t max_callchain_depth = 127;
  bool context_switches = true;  // PERF_RECORD_SWITCH in/out of every sampled thread
  // Data bytes of each CPU's ring (a power of 2, at least a page); 0 chooses from the frequency
  // and the sample size (RingDataBytes).
  uint64_t ring_data_bytes = 0;
};

// The mask of x86-64 user registers a kDwarf sample holds: every general-purpose register of enum
// perf_event_x86_regs (<asm/perf_regs.h>) below PERF_REG_X86_64_MAX except DS, ES, FS and GS,
// which the kernel refuses for 64-bit tasks (EINVAL, measured on 6.18). 20 registers, in
// ascending bit order: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15.
uint64_t PerfUserRegsMask();
// The position of register `perf_reg` (PERF_REG_X86_*) in a sample's `regs`, or -1 when the mask
// leaves it out.
int PerfUserRegIndex(uint64_t mask, int perf_reg);

// Checks the ranges the kernel would refuse with a bare EINVAL, naming the option.
Status CheckSamplingOptions(const PerfSamplingOptions& options);

// The attributes of the per-CPU sampling event, before any refused feature is turned off.
// `max_stack` is perf_event_max_stack (sample_max_stack above it fails with EOVERFLOW).
perf_event_attr SamplingAttributes(const PerfSamplingOptions& options, uint32_t max_stack);

PerfRecordLayout LayoutOf(const perf_event_attr& attr);

// Each CPU's ring data size: room for 0.25 s of the largest samples at the full rate (a CPU runs
// one thread at a time, so a CPU's ring gets at most frequency_hz samples per second), rounded up
// to a power of 2, between 64 KiB and 16 MiB. The reader is woken at half a ring, so it has at
// least 0.125 s to drain before the kernel drops records. fp at 1000 Hz: 512 KiB;
// dwarf with 16 KiB stacks: 4 MiB; none: 64 KiB.
uint64_t RingDataBytes(const PerfSamplingOptions& options, uint32_t max_stack);

// "0-3,5,7-8" (the format of /sys/devices/system/cpu/online) as a sorted list.
StatusOr<std::vector<int>> ParseCpuList(std::string_view text);
StatusOr<std::vector<int>> OnlineCpus();

// An integer kernel setting such as /proc/sys/kernel/perf_event_paranoid, or `fallback`.
int ReadKernelSetting(const std::string& path, int fallback);

}  // namespace prof::collector::perf
