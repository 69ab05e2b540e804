// The timing harness of the report-write benchmarks: loads rows through ReportWriter the way the
// collector does (Add* on this thread, a Commit about every second), finishes the report and
// measures each phase, then removes the report.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "storage/report_writer.h"

namespace prof::bench {

struct WriteTiming {
  double load_seconds = 0;    // until the last row is queued (Add* hand rows to the writer thread)
  double finish_seconds = 0;  // the rows still queued then, and the last commit
  double cpu_seconds = 0;     // user + system of every thread: the cost when others share the CPU
  double report_bytes = 0;
  double total_seconds() const { return load_seconds + finish_seconds; }
};

inline double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Creates the report at `path`, calls prepare(writer) untimed, then add(writer, i) for i in
// [0, count) with a Commit after every `per_commit`, and Finish. False with one line on stderr,
// naming `program`, when the writer fails.
template <typename Prepare, typename Add>
bool TimeReportWrites(const char* program, const std::string& path, int64_t count,
                      int64_t per_commit, Prepare prepare, Add add, WriteTiming* timing) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const auto fail = [program](const Status& status) {
    std::fprintf(stderr, "%s: %s\n", program, status.message().c_str());
    return false;
  };
  StatusOr<std::unique_ptr<storage::ReportWriter>> created = storage::ReportWriter::Create(path);
  if (!created.ok()) return fail(created.status());
  std::unique_ptr<storage::ReportWriter> writer = std::move(created).value();
  prepare(writer.get());
  const Clock::time_point start = Clock::now();
  const double cpu_start = CpuSeconds();
  for (int64_t i = 0; i < count; ++i) {
    add(writer.get(), i);
    if ((i + 1) % per_commit != 0) continue;
    if (Status status = writer->Commit(); !status.ok()) return fail(status);
  }
  timing->load_seconds = seconds_since(start);
  const Clock::time_point finish_start = Clock::now();
  storage::SessionInfo session;
  session.duration_ns = static_cast<int64_t>(timing->load_seconds * 1e9);
  if (Status status = writer->Finish(session); !status.ok()) return fail(status);
  timing->finish_seconds = seconds_since(finish_start);
  timing->cpu_seconds = CpuSeconds() - cpu_start;
  timing->report_bytes = static_cast<double>(std::filesystem::file_size(path));
  std::filesystem::remove(path);
  return true;
}

}  // namespace prof::bench
