#include "tests/diff/report_builder.h"

#include <fmt/format.h>

#include <vector>

#include "tests/stats/stats_test_util.h"

namespace prof::diff::test {
namespace {

const std::string kThread = stats::test::Tid(100, 1);
// NVTX_EVENTS eventType of nvtxRangePush/Pop and nvtxRangeStart/End ranges.
constexpr int kPushPopRange = 59;
constexpr int kStartEndRange = 60;
const std::string kProcess = stats::test::Tid(100, 0);

std::string Quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string_view ShortName(std::string_view name) {
  return name.substr(0, name.find_first_of("(<"));
}

}  // namespace

int64_t ReportBuilder::StringId(std::string_view text) {
  const auto found = strings_.find(text);
  if (found != strings_.end()) return found->second;
  const int64_t id = static_cast<int64_t>(strings_.size());
  strings_.emplace(std::string(text), id);
  rows_sql_ += fmt::format("INSERT INTO StringIds (id, value) VALUES ({}, {});", id, Quoted(text));
  return id;
}

// nsys names a domain with an NvtxDomainCreate event (eventType 75).
int64_t ReportBuilder::DomainId(std::string_view domain, int64_t start) {
  if (domain.empty()) return 0;
  const auto found = domains_.find(domain);
  if (found != domains_.end()) return found->second;
  const int64_t id = static_cast<int64_t>(domains_.size()) + 1;
  domains_.emplace(std::string(domain), id);
  AddRow("NVTX_EVENTS",
         fmt::format("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) "
                     "VALUES ({}, 75, {}, {}, {});",
                     start, Quoted(domain), kThread, id));
  return id;
}

void ReportBuilder::AddRow(const std::string& table_file, const std::string& insert) {
  table_files_.insert(table_file);
  rows_sql_ += insert;
}

ReportBuilder& ReportBuilder::Kernel(std::string_view name, int64_t start, int64_t duration,
                                     Launch launch) {
  const int64_t demangled = StringId(name);
  const int64_t short_name = StringId(ShortName(name));
  AddRow("CUPTI_ACTIVITY_KIND_KERNEL",
         fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, "
                     "streamId, correlationId, globalPid, demangledName, shortName, "
                     "registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                     "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, "
                     "localMemoryTotal, gridId) VALUES ({}, {}, {}, 1, 7, {}, {}, {}, {}, 32, {}, "
                     "1, 1, {}, 1, 1, 0, 0, 0, 0, {});",
                     start, start + duration, launch.device, next_correlation_id_, kProcess,
                     demangled, short_name, launch.grid_x, launch.block_x, next_correlation_id_));
  ++next_correlation_id_;
  return *this;
}

ReportBuilder& ReportBuilder::Memcpy(int copy_kind, int64_t start, int64_t duration, int device) {
  AddRow("CUPTI_ACTIVITY_KIND_MEMCPY",
         fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, "
                     "streamId, correlationId, globalPid, bytes, copyKind) "
                     "VALUES ({}, {}, {}, 1, 7, {}, {}, 1000, {});",
                     start, start + duration, device, next_correlation_id_++, kProcess, copy_kind));
  table_files_.insert("ENUM_CUDA_MEMCPY_OPER");
  return *this;
}

ReportBuilder& ReportBuilder::ApiCall(std::string_view name, int64_t start, int64_t duration) {
  const int64_t name_id = StringId(name);
  AddRow("CUPTI_ACTIVITY_KIND_RUNTIME",
         fmt::format("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
                     "correlationId, nameId, returnValue) VALUES ({}, {}, 0, {}, {}, {}, 0);",
                     start, start + duration, kThread, next_correlation_id_++, name_id));
  return *this;
}

ReportBuilder& ReportBuilder::Range(std::string_view text, int64_t start, int64_t duration,
                                    std::string_view domain) {
  return AddRange(kPushPopRange, text, start, duration, domain);
}

ReportBuilder& ReportBuilder::StartEndRange(std::string_view text, int64_t start,
                                            int64_t duration) {
  return AddRange(kStartEndRange, text, start, duration, "");
}

ReportBuilder& ReportBuilder::AddRange(int event_type, std::string_view text, int64_t start,
                                       int64_t duration, std::string_view domain) {
  const int64_t domain_id = DomainId(domain, start);
  AddRow("NVTX_EVENTS",
         fmt::format("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) "
                     "VALUES ({}, {}, {}, {}, {}, {});",
                     start, start + duration, event_type, Quoted(text), kThread, domain_id));
  return *this;
}

ReportBuilder& ReportBuilder::OsrtCall(std::string_view name, int64_t start, int64_t duration,
                                       int tid) {
  const int64_t name_id = StringId(name);
  AddRow("OSRT_API",
         fmt::format("INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, "
                     "returnValue, nestingLevel, callchainId) VALUES ({}, {}, 27, {}, {}, 0, 0, "
                     "0);",
                     start, start + duration, stats::test::Tid(100, tid), name_id));
  return *this;
}

ReportBuilder& ReportBuilder::OffCpu(int64_t start, int64_t duration, bool preempted, int tid) {
  // Preempted: threadState 1 (Running), threadBlock 44 (Preempted); blocked: 2 (Interruptible).
  AddRow("SCHED_EVENTS",
         fmt::format("INSERT INTO SCHED_EVENTS (start, cpu, isSchedIn, globalTid, threadState, "
                     "threadBlock) VALUES ({0}, 0, 0, {2}, {3}, {4}), ({1}, 0, 1, {2}, 1, NULL);",
                     start, start + duration, stats::test::Tid(100, tid), preempted ? 1 : 2,
                     preempted ? 44 : 1));
  return *this;
}

std::string ReportBuilder::Write(const std::string& name) const {
  std::string rows = rows_sql_;
  if (table_files_.count("ENUM_CUDA_MEMCPY_OPER") > 0) {
    rows +=
        "INSERT INTO ENUM_CUDA_MEMCPY_OPER (id, name, label) VALUES"
        " (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),"
        " (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host');";
  }
  return stats::test::MakeReport(
      "diff_" + name, std::vector<std::string>(table_files_.begin(), table_files_.end()), rows);
}

}  // namespace prof::diff::test
