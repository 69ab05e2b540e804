// Loads a few million mixed NVTX / OS-runtime rows through ReportWriter, the way the collector does
// (InternString per OS-runtime row, Commit about every second), and prints the rates.
//
// Usage: bench_report_write [rows] [report path]   (defaults: 3000000,
// /tmp/bench_report_write.sqlite)
#include <sys/resource.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "storage/global_id.h"
#include "storage/report_writer.h"

namespace {

using Clock = std::chrono::steady_clock;
using prof::storage::NvtxEventRow;
using prof::storage::OsrtCallRow;
using prof::storage::ReportWriter;

constexpr std::array<const char*, 8> kOsrtNames = {"read",   "write", "pthread_mutex_lock",
                                                   "poll",   "ioctl", "pthread_cond_wait",
                                                   "mmap64", "open64"};
constexpr std::array<const char*, 4> kRangeTexts = {"forward", "backward", "optimizer.step",
                                                    "aten::mm"};
constexpr int64_t kRowsPerCommit = 1000000;  // about one second of rows, as the collector commits

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// User + system CPU seconds of this process: on a shared machine it shows the cost per row when
// other work steals the CPU from the wall-clock figure.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

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
  prof::StatusOr<std::unique_ptr<ReportWriter>> created = ReportWriter::Create(path);
  if (!created.ok()) {
    std::fprintf(stderr, "bench_report_write: %s\n", created.status().message().c_str());
    return 1;
  }
  std::unique_ptr<ReportWriter> writer = std::move(created).value();
  const Clock::time_point start = Clock::now();
  const double cpu_start = CpuSeconds();
  for (int64_t i = 0; i < rows; ++i) {
    AddRow(writer.get(), i);
    if ((i + 1) % kRowsPerCommit != 0) continue;
    if (prof::Status status = writer->Commit(); !status.ok()) {
      std::fprintf(stderr, "bench_report_write: %s\n", status.message().c_str());
      return 1;
    }
  }
  const double load_seconds = SecondsSince(start);
  const Clock::time_point finish_start = Clock::now();
  prof::storage::SessionInfo session;
  session.duration_ns = static_cast<int64_t>(load_seconds * 1e9);
  if (prof::Status status = writer->Finish(session); !status.ok()) {
    std::fprintf(stderr, "bench_report_write: %s\n", status.message().c_str());
    return 1;
  }
  const double finish_seconds = SecondsSince(finish_start);
  const double total_seconds = load_seconds + finish_seconds;
  const double cpu_seconds = CpuSeconds() - cpu_start;  // both threads
  std::printf("rows:             %lld (2/3 OSRT_API, 1/3 NVTX_EVENTS)\n",
              static_cast<long long>(rows));
  // Add* hand rows to the writer thread, so "load" ends when the last row is queued; the rows
  // still queued then are written during "finish", before the commit.
  std::printf("load:             %.3f s, %.0f rows/s\n", load_seconds, rows / load_seconds);
  std::printf("finish (backlog, commit): %.3f s\n", finish_seconds);
  std::printf("total:            %.3f s, %.0f rows/s (CPU %.3f s, %.0f rows per CPU second)\n",
              total_seconds, rows / total_seconds, cpu_seconds, rows / cpu_seconds);
  std::printf("report size:      %.1f MiB\n",
              static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0));
  std::filesystem::remove(path);
  return 0;
}
