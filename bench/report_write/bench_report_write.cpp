// Loads a few million mixed NVTX / OS-runtime rows through ReportWriter, the way the collector does
// (InternString per OS-runtime row, Commit about every second), and prints the rates.
//
// Usage: bench_report_write [rows] [report path]   (defaults: 3000000,
// /tmp/bench_report_write.sqlite)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/report_write/write_timing.h"
#include "storage/global_id.h"
#include "storage/report_writer.h"

namespace {

using prof::storage::NvtxEventRow;
using prof::storage::OsrtCallRow;
using prof::storage::ReportWriter;

constexpr std::array<const char*, 8> kOsrtNames = {"read",   "write", "pthread_mutex_lock",
                                                   "poll",   "ioctl", "pthread_cond_wait",
                                                   "mmap64", "open64"};
constexpr std::array<const char*, 4> kRangeTexts = {"forward", "backward", "optimizer.step",
                                                    "aten::mm"};
constexpr int64_t kRowsPerCommit = 1000000;  // about one second of rows, as the collector commits

// Two OS-runtime rows for every NVTX row, spread over 4 threads; one NVTX row in 4 has a payload.
void AddRow(ReportWriter* writer, int64_t i) {
  const int64_t global_tid = prof::storage::GlobalTid(4242, 4242 + static_cast<uint32_t>(i % 4));
  const int64_t start = i * 100;
  if (i % 3 != 0) {
    OsrtCallRow row;
    row.start = start;
    row.end = start + 1500 + (i % 977);
    row.global_tid = global_tid;
    row.name_id = writer->InternString(kOsrtNames[static_cast<size_t>(i) % kOsrtNames.size()]);
    row.return_value = i % 5;
    writer->Add<prof::storage::kOsrtApiTable>(row);
    return;
  }
  NvtxEventRow row;
  row.start = start;
  row.end = start + 50000;
  row.event_type = 59;
  row.text = kRangeTexts[static_cast<size_t>(i / 3) % kRangeTexts.size()];
  row.global_tid = global_tid;
  row.domain_id = 0;
  if (i % 4 == 0) row.int64_value = i;
  writer->Add<prof::storage::kNvtxEventsTable>(row);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t rows = argc > 1 ? std::atoll(argv[1]) : 3000000;
  const std::string path = argc > 2 ? argv[2] : "/tmp/bench_report_write.sqlite";
  prof::bench::WriteTiming timing;
  if (!prof::bench::TimeReportWrites(
          "bench_report_write", path, rows, kRowsPerCommit, [](ReportWriter*) {}, AddRow,
          &timing)) {
    return 1;
  }
  const double total_seconds = timing.total_seconds();
  std::printf("rows:             %lld (2/3 OSRT_API, 1/3 NVTX_EVENTS)\n",
              static_cast<long long>(rows));
  std::printf("load:             %.3f s, %.0f rows/s\n", timing.load_seconds,
              rows / timing.load_seconds);
  std::printf("finish (backlog, commit): %.3f s\n", timing.finish_seconds);
  std::printf("total:            %.3f s, %.0f rows/s (CPU %.3f s, %.0f rows per CPU second)\n",
              total_seconds, rows / total_seconds, timing.cpu_seconds, rows / timing.cpu_seconds);
  std::printf("report size:      %.1f MiB\n", timing.report_bytes / (1024.0 * 1024.0));
  return 0;
}
