// Loads CPU samples through ReportWriter the way a sampling collector would: per sample one
// COMPOSITE_EVENTS row and its 40 SAMPLING_CALLCHAINS rows (symbols and modules already interned,
// as a symbolizer's cache hands out StringIds), Commit about every second; prints the rates.
//
// Usage: bench_sample_write [samples] [report path]   (defaults: 100000,
// /tmp/bench_sample_write.sqlite)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/report_write/write_timing.h"
#include "storage/global_id.h"
#include "storage/report_writer.h"

namespace {

using prof::storage::ReportWriter;

constexpr int kDepth = 40;
constexpr int kFunctions = 2000;              // distinct functions the stacks draw from
constexpr int64_t kSamplesPerCommit = 25000;  // about 1M rows, as the collector commits

}  // namespace

int main(int argc, char** argv) {
  const int64_t samples = argc > 1 ? std::atoll(argv[1]) : 100000;
  const std::string path = argc > 2 ? argv[2] : "/tmp/bench_sample_write.sqlite";
  std::vector<prof::storage::StringId> symbols, modules;
  const auto intern = [&](ReportWriter* writer) {
    for (int i = 0; i < kFunctions; ++i) {
      symbols.push_back(writer->InternString("function_" + std::to_string(i)));
      modules.push_back(
          writer->InternString("/usr/lib/libmodule_" + std::to_string(i % 50) + ".so"));
    }
  };
  prof::storage::CpuSampleRow sample;
  prof::storage::SamplingFrameRow frame;
  frame.unwind_method = prof::storage::kUnwindDwarfEh;
  const auto add = [&](ReportWriter* writer, int64_t i) {
    sample.id = i + 1;
    sample.start = i * 1000;
    sample.cpu = static_cast<int32_t>(i % 16);
    sample.global_tid = prof::storage::GlobalTid(4242, 4242 + static_cast<uint32_t>(i % 4));
    writer->Add<prof::storage::kCompositeEventsTable>(sample);
    frame.id = sample.id;
    for (int depth = 0; depth < kDepth; ++depth) {
      const size_t function = static_cast<size_t>((i * 7 + depth * 31) % kFunctions);
      frame.symbol = symbols[function];
      frame.module = modules[function];
      frame.original_ip = 0x7f0000000000 + static_cast<int64_t>(function) * 64 + depth;
      frame.stack_depth = depth;
      writer->Add<prof::storage::kSamplingCallchainsTable>(frame);
    }
  };
  prof::bench::WriteTiming timing;
  if (!prof::bench::TimeReportWrites("bench_sample_write", path, samples, kSamplesPerCommit, intern,
                                     add, &timing)) {
    return 1;
  }
  const double total_seconds = timing.total_seconds();
  const double frames = static_cast<double>(samples) * kDepth;
  std::printf("samples:          %lld (%d frames each)\n", static_cast<long long>(samples), kDepth);
  std::printf("load:             %.3f s, %.0f samples/s\n", timing.load_seconds,
              samples / timing.load_seconds);
  std::printf(
      "total:            %.3f s, %.0f samples/s, %.0f SAMPLING_CALLCHAINS rows/s, "
      "%.0f rows/s in all (CPU %.3f s)\n",
      total_seconds, samples / total_seconds, frames / total_seconds,
      (frames + samples) / total_seconds, timing.cpu_seconds);
  std::printf("report size:      %.1f MiB (%.1f bytes per frame)\n",
              timing.report_bytes / (1024.0 * 1024.0), timing.report_bytes / frames);
  return 0;
}
