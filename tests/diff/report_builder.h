// Builds small hand-made reports for the `prof diff` tests: kernels, copies, API calls, NVTX
// ranges and OS runtime calls with chosen names and times (ns), on one thread (pid 100, tid 1)
// unless an OS runtime call names another. Like nsys, the report holds only the tables that have rows, so a builder without CUDA
// rows makes an NVTX/OSRT-only report.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace prof::diff::test {

// A kernel's launch dimensions (gridX, blockX; the others are 1) and device.
struct Launch {
  int grid_x = 1;
  int block_x = 128;
  int device = 0;
};

class ReportBuilder {
 public:
  // demangledName `name`, shortName its text before the first '(' or '<'.
  ReportBuilder& Kernel(std::string_view name, int64_t start, int64_t duration, Launch launch = {});
  // copyKind 1 (Host-to-Device) or 2 (Device-to-Host).
  ReportBuilder& Memcpy(int copy_kind, int64_t start, int64_t duration, int device = 0);
  ReportBuilder& ApiCall(std::string_view name, int64_t start, int64_t duration);
  // A push/pop range; `domain` empty for the default domain.
  ReportBuilder& Range(std::string_view text, int64_t start, int64_t duration,
                       std::string_view domain = "");
  // On thread `tid` of pid 100.
  // An nvtxRangeStart/End range of the default domain.
  ReportBuilder& StartEndRange(std::string_view text, int64_t start, int64_t duration);
  ReportBuilder& OsrtCall(std::string_view name, int64_t start, int64_t duration, int tid = 1);

  // Thread `tid` of pid 100 off its CPU from `start` for `duration` ns (SCHED_EVENTS): preempted
  // (runnable), or blocked (threadState 2).
  ReportBuilder& OffCpu(int64_t start, int64_t duration, bool preempted, int tid = 1);

  // Writes <fresh temp dir>/<name>.sqlite; returns its path.
  std::string Write(const std::string& name) const;

 private:
  int64_t StringId(std::string_view text);
  int64_t DomainId(std::string_view domain, int64_t start);
  ReportBuilder& AddRange(int event_type, std::string_view text, int64_t start, int64_t duration,
                          std::string_view domain);
  void AddRow(const std::string& table_file, const std::string& insert);

  std::map<std::string, int64_t, std::less<>> strings_;
  std::map<std::string, int64_t, std::less<>> domains_;
  std::set<std::string> table_files_;
  std::string rows_sql_;
  int64_t next_correlation_id_ = 1;
};

}  // namespace prof::diff::test
