// bench_symbols [library-dir]: how fast collector/symbols turns samples into frames.
//   1. resolution: 20,000 distinct addresses from a cold start; then 50 shared libraries of `library-dir` (default /usr/lib/x86_64-linux-gnu),
//      mapped into one made-up process at their real file offsets; 100,000 samples of 16 frames
//      drawn from 20,000 distinct code addresses, resolved from a cold start (files opened, symbol
//      tables read), then the same samples again (every lookup cached);
//   2. unwinding: this program's own stack, captured with getcontext 8 calls deep, DWARF-unwound
//      20,000 times.
// Prints one line per measurement. Not a test: no budget is checked.
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "collector/symbols/dwarf_unwinder.h"
#include "collector/symbols/elf_file.h"
#include "collector/symbols/module_files.h"
#include "collector/symbols/process_table.h"
#include "collector/symbols/symbolizer.h"

namespace {

using prof::symbols::ElfFile;
using prof::symbols::Mapping;
using Clock = std::chrono::steady_clock;

constexpr int kPid = 1000;
constexpr size_t kModules = 50;
constexpr size_t kDistinct = 20000;
constexpr size_t kSamples = 100000;
constexpr size_t kFramesPerSample = 16;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Executable segments of the first kModules shared libraries, each mapped at its own made-up
// base, as perf's MMAP2 records would report them.
std::vector<Mapping> MapLibraries(const std::string& dir) {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && !entry.is_symlink() && name.find(".so.") != std::string::npos) {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Mapping> mappings;
  uint64_t base = 0x7f0000000000;
  for (const std::string& path : paths) {
    if (mappings.size() == kModules) break;
    auto file = ElfFile::Open(path);
    struct stat st {};
    if (!file.ok() || stat(path.c_str(), &st) != 0) continue;
    for (const auto& segment : (*file)->segments()) {
      // The first segment past the ELF header: the code, in the usual layout of today's linkers.
      if (segment.file_size < 4096 || segment.file_offset == 0) continue;
      Mapping mapping;
      mapping.file_offset = segment.file_offset & ~uint64_t{0xfff};
      mapping.start = base + (segment.vaddr & ~uint64_t{0xfff});
      mapping.length = segment.file_size + (segment.file_offset & 0xfff);
      mapping.path = path;
      mapping.prot = PROT_READ | PROT_EXEC;
      mapping.identity = {major(st.st_dev), minor(st.st_dev), st.st_ino};
      mappings.push_back(mapping);
      break;
    }
    base += 0x100000000;
  }
  return mappings;
}

void BenchResolution(const std::string& dir) {
  std::vector<Mapping> mappings = MapLibraries(dir);
  prof::symbols::ProcessTable table;
  for (const Mapping& mapping : mappings) table.Process(kPid).AddMapping(mapping);
  std::mt19937_64 random(7);
  std::vector<uint64_t> distinct;
  for (size_t i = 0; i < kDistinct; ++i) {
    const Mapping& mapping = mappings[random() % mappings.size()];
    distinct.push_back(mapping.start + random() % mapping.length);
  }
  std::vector<std::vector<uint64_t>> samples(kSamples);
  for (auto& sample : samples) {
    for (size_t f = 0; f < kFramesPerSample; ++f) sample.push_back(distinct[random() % kDistinct]);
  }

  {
    // Distinct addresses only, from a cold start: the cost of first lookups, files included.
    prof::symbols::ModuleFiles files;
    prof::symbols::Symbolizer symbolizer(table, files);
    auto start = Clock::now();
    for (uint64_t address : distinct) (void)symbolizer.Resolve(kPid, address);
    double seconds = SecondsSince(start);
    std::printf("distinct addresses, cold: %zu in %.3f s, %.0f addresses/s\n", kDistinct, seconds,
                kDistinct / seconds);
  }
  prof::symbols::ModuleFiles files;
  prof::symbols::Symbolizer symbolizer(table, files);
  size_t unresolved = 0;
  auto cold_start = Clock::now();
  for (const auto& sample : samples) {
    for (const auto& frame : symbolizer.ResolveStack(kPid, sample)) unresolved += frame.unresolved;
  }
  double cold = SecondsSince(cold_start);
  uint64_t resolved = symbolizer.counts().resolved_addresses;
  auto warm_start = Clock::now();
  for (const auto& sample : samples) {
    for (const auto& frame : symbolizer.ResolveStack(kPid, sample)) unresolved += frame.unresolved;
  }
  double warm = SecondsSince(warm_start);
  double frames = static_cast<double>(kSamples * kFramesPerSample);
  std::printf("resolution: %zu modules, %zu samples x %zu frames, %llu distinct addresses\n",
              mappings.size(), kSamples, kFramesPerSample,
              static_cast<unsigned long long>(resolved));
  std::printf("  cold (files opened, symbols read): %.3f s, %.0f samples/s\n", cold,
              kSamples / cold);
  std::printf("  cached: %.3f s, %.0f lookups/s\n", warm, frames / warm);
  std::printf("  files opened: %llu, unresolved frames: %zu of %.0f\n",
              static_cast<unsigned long long>(files.counts().opened), unresolved, 2 * frames);
}

struct Captured {
  prof::symbols::UserRegisters registers;
  std::vector<uint8_t> stack;
};

// Registers as getcontext saved them (rip: just after its call) and the stack above them.
__attribute__((noinline)) void Capture(Captured* out) {
  ucontext_t context;
  getcontext(&context);
  const greg_t* g = context.uc_mcontext.gregs;
  auto& v = out->registers.values;
  v[PERF_REG_X86_AX] = g[REG_RAX];
  v[PERF_REG_X86_BX] = g[REG_RBX];
  v[PERF_REG_X86_CX] = g[REG_RCX];
  v[PERF_REG_X86_DX] = g[REG_RDX];
  v[PERF_REG_X86_SI] = g[REG_RSI];
  v[PERF_REG_X86_DI] = g[REG_RDI];
  v[PERF_REG_X86_BP] = g[REG_RBP];
  v[PERF_REG_X86_SP] = g[REG_RSP];
  v[PERF_REG_X86_IP] = g[REG_RIP];
  v[PERF_REG_X86_R8] = g[REG_R8];
  v[PERF_REG_X86_R9] = g[REG_R9];
  v[PERF_REG_X86_R10] = g[REG_R10];
  v[PERF_REG_X86_R11] = g[REG_R11];
  v[PERF_REG_X86_R12] = g[REG_R12];
  v[PERF_REG_X86_R13] = g[REG_R13];
  v[PERF_REG_X86_R14] = g[REG_R14];
  v[PERF_REG_X86_R15] = g[REG_R15];
  // Up to 8 KiB (perf's --call-graph=dwarf default copies 8 KiB), never past the stack's top.
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  const auto* sp = reinterpret_cast<const uint8_t*>(g[REG_RSP]);
  size_t available = static_cast<size_t>(static_cast<const uint8_t*>(base) + size - sp);
  out->stack.assign(sp, sp + std::min<size_t>(8192, available));
}

__attribute__((noipa)) int Nest(int depth, Captured* out) {
  if (depth == 0) {
    Capture(out);
    return 0;
  }
  int result = Nest(depth - 1, out);
  // A side effect after the call keeps GCC from turning the recursion into a loop.
  asm volatile("" ::: "memory");
  return result + 1;
}

void BenchUnwinding() {
  Captured captured;
  Nest(8, &captured);
  prof::symbols::ProcessTable table;
  if (!table.SnapshotFromProc(getpid()).ok()) return;
  prof::symbols::ModuleFiles files;
  prof::symbols::DwarfUnwinder unwinder(table, files);
  prof::symbols::ByteSpan stack{captured.stack.data(), captured.stack.size()};
  constexpr int kStacks = 20000;
  size_t frames = 0;
  auto start = Clock::now();
  for (int i = 0; i < kStacks; ++i) {
    frames +=
        unwinder.Unwind(getpid(), captured.registers, stack, captured.registers.sp(), 128).size();
  }
  double seconds = SecondsSince(start);
  std::printf("unwinding: %d stacks of %zu frames in %.3f s, %.0f stacks/s\n", kStacks,
              frames / kStacks, seconds, kStacks / seconds);
}

}  // namespace

int main(int argc, char** argv) {
  BenchResolution(argc > 1 ? argv[1] : "/usr/lib/x86_64-linux-gnu");
  BenchUnwinding();
  return 0;
}
