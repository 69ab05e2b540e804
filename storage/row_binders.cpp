#include "storage/row_binders.h"

namespace prof::storage {

void Bind(const StringIdRow& row, RowBinder* binder) {
  binder->Int64(row.id);
  binder->Text(row.value);
}

void Bind(const NameValueRow& row, RowBinder* binder) {
  binder->Text(row.name);
  binder->Text(row.value);
}

void Bind(const ProcessRow& row, RowBinder* binder) {
  binder->Int64(row.global_pid);
  binder->Int64(row.pid);
  binder->Text(row.name);
}

void Bind(const MpiRankRow& row, RowBinder* binder) {
  binder->Int64(row.global_tid);
  binder->Int64(row.rank);
}

void Bind(const DiagnosticEventRow& row, RowBinder* binder) {
  constexpr int64_t kHostTimestamp = 2;  // ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE
  constexpr int64_t kDaemon = 2;         // ENUM_DIAGNOSTIC_SOURCE_TYPE: the launcher
  constexpr int64_t kWarning = 2;        // ENUM_DIAGNOSTIC_SEVERITY_LEVEL
  binder->Int64(row.timestamp);
  binder->Int64(kHostTimestamp);
  binder->Int64(kDaemon);
  binder->Int64(kWarning);
  binder->Text(row.text);
  binder->Int64(row.global_pid);
}

void Bind(const ThreadNameRow& row, RowBinder* binder) {
  binder->Int64(row.name_id);
  binder->Int64(row.priority);
  binder->Int64(row.global_tid);
}

void Bind(const SessionStartRow& row, RowBinder* binder) {
  binder->Int64(row.utc_epoch_ns);
  binder->Text(row.utc_time);
  binder->Text(row.local_time);
}

void Bind(const NvtxEventRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.end);
  binder->Int64(row.event_type);
  binder->Int64(row.range_id);
  binder->Int64(row.category);
  binder->Int64(row.color);
  binder->Text(row.text);
  binder->Int64(row.global_tid);
  binder->Int64(row.end_global_tid);
  binder->Int64(row.text_id);
  binder->Int64(row.domain_id);
  binder->Int64(row.uint64_value);
  binder->Int64(row.int64_value);
  binder->Double(row.double_value);
  binder->Int64(row.uint32_value);
  binder->Int64(row.int32_value);
  binder->Double(row.float_value);
  binder->Int64(row.json_text_id);
}

void Bind(const OsrtCallRow& row, RowBinder* binder) {
  binder->Int64(row.start);
  binder->Int64(row.end);
  binder->Int64(kOsRuntimeEventClass);
  binder->Int64(row.global_tid);
  binder->Int64(row.name_id);
  binder->Int64(row.return_value);
  binder->Int64(row.nesting_level);
  binder->Int64(int64_t{0});  // callchainId: prof records no backtraces
}

}  // namespace prof::storage
