#include "collector/cpu_samples/sample_resolver.h"

#include "collector/symbols/unwind_method.h"
#include "collector/symbols/user_registers.h"
#include "injection/protocol/clock.h"
#include "injection/protocol/sample_records.h"

namespace prof::collector {
namespace {

// Frames a DWARF walk may produce; perf's frame-pointer chains stop at perf_event_max_stack.
constexpr size_t kMaxDwarfFrames = 127;
constexpr uint64_t kMissWindowNs = 1'000'000'000;
constexpr uint32_t kMaxSnapshotsPerWindow = 8;
constexpr int kRegionShift = 21;  // 2 MiB
static_assert(__builtin_popcountll(symbols::kUnwindRegisterMask) == protocol::kSampleRegisterCount,
              "a sample's registers are the ones perf delivers for kUnwindRegisterMask");

}  // namespace

SampleResolver::SampleResolver() : symbolizer_(processes_, files_), unwinder_(processes_, files_) {}

void SampleResolver::OnMmap(const perf::PerfMmap& mmap) {
  symbols::Mapping mapping;
  mapping.start = mmap.address;
  mapping.length = mmap.length;
  mapping.file_offset = mmap.page_offset;
  mapping.path = std::string(mmap.path);
  mapping.prot = static_cast<int>(mmap.prot);
  mapping.identity = {mmap.device_major, mmap.device_minor, mmap.inode};
  mapping.build_id.assign(reinterpret_cast<const char*>(mmap.build_id.data), mmap.build_id.size);
  processes_.Process(static_cast<int>(mmap.pid)).AddMapping(std::move(mapping));
}

void SampleResolver::OnExec(uint32_t pid) {
  processes_.Process(static_cast<int>(pid)).Exec();
  misses_.erase(pid);
}

void SampleResolver::OnFork(uint32_t child, uint32_t parent) {
  processes_.Fork(static_cast<int>(child), static_cast<int>(parent));
}

void SampleResolver::LearnMappings(uint32_t pid, uint64_t ip) {
  const symbols::ProcessMaps* maps = processes_.Find(static_cast<int>(pid));
  if (maps != nullptr && maps->Find(ip) != nullptr) return;
  const uint64_t now = protocol::MonotonicNowNs();
  Misses& misses = misses_[pid];
  if (now - misses.second_start_ns >= kMissWindowNs) {
    misses.second_start_ns = now;
    misses.snapshots = 0;
    misses.regions.clear();
  }
  if (!misses.regions.insert(ip >> kRegionShift).second) return;  // missed this second already
  if (misses.snapshots >= kMaxSnapshotsPerWindow) return;
  ++misses.snapshots;
  // A process already gone keeps what the records said; its unknown addresses stay unresolved.
  (void)processes_.SnapshotFromProc(static_cast<int>(pid));
}

void SampleResolver::Resolve(const perf::PerfSample& sample, perf::PerfBacktrace backtrace,
                             uint64_t regs_mask, ResolvedSample* out) {
  ips_.clear();
  int32_t method = static_cast<int32_t>(symbols::UnwindMethod::kFramePointer);
  switch (backtrace) {
    case perf::PerfBacktrace::kFramePointer:
      ips_.assign(sample.callchain.begin(), sample.callchain.end());
      break;
    case perf::PerfBacktrace::kDwarf:
      method = static_cast<int32_t>(symbols::UnwindMethod::kDwarfEh);
      if (sample.regs_abi != 0 && !sample.regs.empty()) {
        LearnMappings(sample.id.pid, sample.ip);
        const symbols::UserRegisters registers =
            symbols::UserRegisters::FromPerfSample(regs_mask, sample.regs.data, sample.regs.size);
        const symbols::ByteSpan stack{sample.stack.data,
                                      static_cast<size_t>(sample.stack_dyn_size)};
        ips_ = unwinder_.Unwind(static_cast<int>(sample.id.pid), registers, stack, registers.sp(),
                                kMaxDwarfFrames);
      }
      break;
    case perf::PerfBacktrace::kNone:
      break;
  }
  if (ips_.empty()) ips_.push_back(sample.ip);
  out->pid = sample.id.pid;
  out->tid = sample.id.tid;
  out->cpu = sample.id.cpu;
  out->time_ns = sample.id.time_ns;
  ResolveChain(sample.id.pid, ips_.data(), ips_.size(), method, out);
}

void SampleResolver::ResolveStackCopy(uint32_t pid, const uint64_t* registers, const uint8_t* stack,
                                      size_t stack_size, const uint64_t* fp_ips, size_t fp_count,
                                      ResolvedSample* out) {
  const symbols::UserRegisters user = symbols::UserRegisters::FromPerfSample(
      symbols::kUnwindRegisterMask, registers, protocol::kSampleRegisterCount);
  LearnMappings(pid, user.ip());
  ips_ = unwinder_.Unwind(static_cast<int>(pid), user, {stack, stack_size}, user.sp(),
                          kMaxDwarfFrames);
  if (ips_.size() <= 1 && fp_count > 1) {
    ResolveChain(pid, fp_ips, fp_count, static_cast<int32_t>(symbols::UnwindMethod::kFramePointer),
                 out);
    return;
  }
  ResolveChain(pid, ips_.data(), ips_.size(), static_cast<int32_t>(symbols::UnwindMethod::kDwarfEh),
               out);
}

void SampleResolver::ResolveChain(uint32_t pid, const uint64_t* ips, size_t count,
                                  int32_t unwind_method, ResolvedSample* out) {
  out->frames.clear();
  if (count == 0) return;
  LearnMappings(pid, ips[0]);
  const std::vector<uint64_t> chain(ips, ips + count);
  for (const symbols::ResolvedFrame& frame :
       symbolizer_.ResolveStack(static_cast<int>(pid), chain)) {
    out->frames.push_back({frame.symbol, frame.module, frame.ip, frame.unresolved, unwind_method});
  }
}

}  // namespace prof::collector
