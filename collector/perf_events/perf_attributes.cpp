#include "collector/perf_events/perf_attributes.h"

#include <asm/perf_regs.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "common/split.h"

namespace prof::collector::perf {
namespace {

constexpr uint32_t kMaxFrequencyHz = 100000;  // cpu-clock's period is at least 10 us anyway
constexpr uint32_t kMaxStackBytes = 65528;    // the kernel wants it below 64 KiB, 8-byte aligned
constexpr uint64_t kMinRingBytes = 64 * 1024;
constexpr uint64_t kMaxRingBytes = 16 * 1024 * 1024;

// header, ip, pid+tid, time, cpu
constexpr uint64_t kBaseSampleBytes = 5 * 8;

uint64_t LargestSampleBytes(const PerfSamplingOptions& options, uint32_t max_stack) {
  switch (options.backtrace) {
    case PerfBacktrace::kNone:
      return kBaseSampleBytes;
    case PerfBacktrace::kFramePointer:  // nr, PERF_CONTEXT_USER, the frames
      return kBaseSampleBytes + 16 + 8 * uint64_t{std::min(options.max_callchain_depth, max_stack)};
    case PerfBacktrace::kDwarf:  // abi, registers, size, the stack, dyn_size
      return kBaseSampleBytes + 8 + 8 * __builtin_popcountll(PerfUserRegsMask()) + 16 +
             options.stack_bytes;
  }
  return kBaseSampleBytes;
}

}  // namespace

uint64_t PerfUserRegsMask() {
#if defined(__x86_64__)
  const uint64_t all = (uint64_t{1} << PERF_REG_X86_64_MAX) - 1;
  const uint64_t segments = (uint64_t{1} << PERF_REG_X86_DS) | (uint64_t{1} << PERF_REG_X86_ES) |
                            (uint64_t{1} << PERF_REG_X86_FS) | (uint64_t{1} << PERF_REG_X86_GS);
  return all & ~segments;
#else
  return 0;  // kDwarf is x86-64 only for now: CheckSamplingOptions refuses it elsewhere
#endif
}

int PerfUserRegIndex(uint64_t mask, int perf_reg) {
  if (perf_reg < 0 || perf_reg >= 64 || !(mask & (uint64_t{1} << perf_reg))) return -1;
  return __builtin_popcountll(mask & ((uint64_t{1} << perf_reg) - 1));
}

Status CheckSamplingOptions(const PerfSamplingOptions& options) {
  if (options.frequency_hz == 0 || options.frequency_hz > kMaxFrequencyHz) {
    return Status::Error("sampling frequency must be 1 to " + std::to_string(kMaxFrequencyHz) +
                         " Hz, not " + std::to_string(options.frequency_hz));
  }
  if (options.backtrace == PerfBacktrace::kDwarf) {
    if (PerfUserRegsMask() == 0) {
      return Status::Error("dwarf backtraces are supported on x86-64 only");
    }
    if (options.stack_bytes == 0 || options.stack_bytes % 8 != 0 ||
        options.stack_bytes > kMaxStackBytes) {
      return Status::Error("stack bytes per sample must be a multiple of 8 from 8 to " +
                           std::to_string(kMaxStackBytes) + ", not " +
                           std::to_string(options.stack_bytes));
    }
  }
  const uint64_t ring = options.ring_data_bytes;
  if (ring != 0 && (ring < 4096 || (ring & (ring - 1)) != 0)) {
    return Status::Error("ring size must be a power of 2 of at least 4096 bytes, not " +
                         std::to_string(ring));
  }
  return Status::Ok();
}

perf_event_attr SamplingAttributes(const PerfSamplingOptions& options, uint32_t max_stack) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = 1000000000ull / options.frequency_hz;  // cpu-clock counts ns
  attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
  attr.disabled = 1;        // enable_on_exec starts it: nothing of prof's pre-exec child is sampled
  attr.enable_on_exec = 1;  // ...and side-band records arrive only for enabled events
  attr.inherit = 1;         // threads and forked children get their own copy, same ring
  attr.exclude_kernel = 1;  // perf_event_paranoid 2 allows user space only
  attr.exclude_hv = 1;
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  attr.sample_id_all = 1;  // pid/tid/time/cpu on side-band records too: one merge key for all
  attr.comm = 1;
  attr.task = 1;
  attr.mmap = 1;
  attr.mmap2 = 1;
  attr.build_id = 1;  // MMAP2 carries the ELF build id instead of device/inode when it can
  attr.context_switch = options.context_switches ? 1 : 0;
  attr.watermark = 1;  // wake-ups counted in bytes: set per ring by the session
  switch (options.backtrace) {
    case PerfBacktrace::kNone:
      break;
    case PerfBacktrace::kFramePointer:
      attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
      attr.exclude_callchain_kernel = 1;
      attr.sample_max_stack =
          static_cast<uint16_t>(std::min({options.max_callchain_depth, max_stack, 65535u}));
      break;
    case PerfBacktrace::kDwarf:
      attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
      attr.exclude_callchain_kernel = 1;
      attr.sample_regs_user = PerfUserRegsMask();
      attr.sample_stack_user = options.stack_bytes;
      break;
  }
  return attr;
}

PerfRecordLayout LayoutOf(const perf_event_attr& attr) {
  PerfRecordLayout layout;
  layout.sample_type = attr.sample_type;
  if (attr.sample_type & PERF_SAMPLE_REGS_USER) layout.regs_user_mask = attr.sample_regs_user;
  return layout;
}

uint64_t RingDataBytes(const PerfSamplingOptions& options, uint32_t max_stack) {
  if (options.ring_data_bytes != 0) return options.ring_data_bytes;
  const uint64_t quarter_second =
      LargestSampleBytes(options, max_stack) * uint64_t{options.frequency_hz} / 4;
  uint64_t bytes = kMinRingBytes;
  while (bytes < quarter_second && bytes < kMaxRingBytes) bytes *= 2;
  return bytes;
}

StatusOr<std::vector<int>> ParseCpuList(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  std::vector<int> cpus;
  for (const std::string& part : Split(std::string(text), ',')) {
    int first = -1, last = -1;
    char dash = 0;
    std::istringstream in(part);
    in >> first;
    if (!in.eof()) in >> dash >> last;
    if (dash == 0) last = first;
    if (in.fail() || !in.eof() || first < 0 || last < first || (dash != 0 && dash != '-')) {
      return Status::Error("cannot read the CPU list '" + std::string(text) + "'");
    }
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  if (cpus.empty()) return Status::Error("empty CPU list");
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

StatusOr<std::vector<int>> OnlineCpus() {
  const char* path = "/sys/devices/system/cpu/online";
  std::ifstream file(path);
  std::string text;
  if (!std::getline(file, text)) return Status::Error(std::string("cannot read ") + path);
  return ParseCpuList(text);
}

int ReadKernelSetting(const std::string& path, int fallback) {
  std::ifstream file(path);
  int value = fallback;
  if (!(file >> value)) return fallback;
  return value;
}

}  // namespace prof::collector::perf
