// How each report table's rows are inserted: the INSERT's column list (InsertSpec) and the Bind()
// that hands a row's values over in that order. Columns left out of the list are NULL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/report_writer.h"
#include "storage/row_batch.h"

namespace prof::storage {

// OSRT_API.eventClass of every OS-runtime call: TRACE_PROCESS_EVENT_OS_RUNTIME.
inline constexpr int64_t kOsRuntimeEventClass = 27;

struct InsertSpec {
  std::string_view table;
  std::string_view columns;  // comma-separated, in the order Bind() binds them
};

// Appends one row's values, in the order of its InsertSpec's columns, to a batch's bytes
// (row_batch.h says how they are encoded).
class RowBinder {
 public:
  explicit RowBinder(ByteBuffer* out) : out_(out) {}
  void Int64(int64_t value) { Put(ValueTag::kInt64, &value, sizeof(value)); }
  template <typename T>
  void Int64(const std::optional<T>& value) {
    if (value) {
      Int64(static_cast<int64_t>(*value));
    } else {
      Null();
    }
  }
  void Double(const std::optional<double>& value) {
    if (value) {
      const double real = *value;
      Put(ValueTag::kDouble, &real, sizeof(real));
    } else {
      Null();
    }
  }
  void Text(std::string_view value) {
    const auto length = static_cast<uint32_t>(value.size());
    Put(ValueTag::kText, &length, sizeof(length));
    out_->Append(value.data(), value.size());
  }
  void Text(const std::optional<std::string>& value) {
    if (value) {
      Text(std::string_view(*value));
    } else {
      Null();
    }
  }
  void Null() {
    const auto tag = ValueTag::kNull;
    out_->Append(&tag, sizeof(tag));
  }

 private:
  // The tag and a payload of at most 8 bytes, in one append.
  void Put(ValueTag tag, const void* payload, size_t size) {
    char value[1 + sizeof(int64_t)];
    value[0] = static_cast<char>(tag);
    std::memcpy(value + 1, payload, size);
    out_->Append(value, 1 + size);
  }

  ByteBuffer* out_;
};

// Rows of the tables the writer fills itself (no public row type).
struct StringIdRow {
  int64_t id;
  std::string_view value;
};
struct NameValueRow {  // META_DATA_EXPORT, META_DATA_CAPTURE, PROF_SESSION
  std::string_view name;
  std::string_view value;
};
struct ProcessRow {
  int64_t global_pid;
  int64_t pid;
  std::string_view name;
};
struct ThreadNameRow {
  StringId name_id;
  int64_t priority;
  int64_t global_tid;
};
struct MpiRankRow {
  int64_t global_tid;
  int64_t rank;
};
// A problem with a process's data (DIAGNOSTIC_EVENT). prof writes host timestamps (2), from the
// launcher (source 2), as warnings (severity 2).
struct DiagnosticEventRow {
  int64_t timestamp;
  std::string_view text;
  std::optional<int64_t> global_pid;  // none: a problem of the session, not of one process
};
struct SessionStartRow {
  int64_t utc_epoch_ns;
  std::string_view utc_time;
  std::string_view local_time;
};

inline constexpr InsertSpec kStringIdsInsert{"StringIds", "id, value"};
inline constexpr InsertSpec kExportMetadataInsert{"META_DATA_EXPORT", "name, value"};
inline constexpr InsertSpec kCaptureMetadataInsert{"META_DATA_CAPTURE", "name, value"};
inline constexpr InsertSpec kProfSessionInsert{"PROF_SESSION", "name, value"};
inline constexpr InsertSpec kProcessesInsert{"PROCESSES", "globalPid, pid, name"};
inline constexpr InsertSpec kThreadNamesInsert{"ThreadNames", "nameId, priority, globalTid"};
inline constexpr InsertSpec kMpiRanksInsert{"MPI_RANKS", "globalTid, rank"};
inline constexpr InsertSpec kDiagnosticEventInsert{
    "DIAGNOSTIC_EVENT", "timestamp, timestampType, source, severity, text, globalPid"};
inline constexpr InsertSpec kSessionStartInsert{"TARGET_INFO_SESSION_START_TIME",
                                                "utcEpochNs, utcTime, localTime"};
inline constexpr InsertSpec kNvtxEventsInsert{
    "NVTX_EVENTS",
    "start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId, "
    "domainId, uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue, "
    "jsonTextId"};
inline constexpr InsertSpec kOsrtApiInsert{
    "OSRT_API",
    "start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, callchainId"};

void Bind(const StringIdRow& row, RowBinder* binder);
void Bind(const NameValueRow& row, RowBinder* binder);
void Bind(const ProcessRow& row, RowBinder* binder);
void Bind(const ThreadNameRow& row, RowBinder* binder);
void Bind(const MpiRankRow& row, RowBinder* binder);
void Bind(const DiagnosticEventRow& row, RowBinder* binder);
void Bind(const SessionStartRow& row, RowBinder* binder);
void Bind(const NvtxEventRow& row, RowBinder* binder);
void Bind(const OsrtCallRow& row, RowBinder* binder);

}  // namespace prof::storage
