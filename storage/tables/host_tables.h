// The tables of what the program's threads did on the CPU: NVTX ranges and marks, OS runtime
// calls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "storage/table_definition.h"
#include "storage/tables/enum_tables.h"

namespace prof::storage {

struct NvtxEventRow {
  int64_t start = 0;
  std::optional<int64_t> end;
  int32_t event_type = 0;  // ENUM_NSYS_EVENT_TYPE id: 59 push/pop, 60 start/end, 34 mark, 75 domain
  std::optional<int64_t> range_id;
  std::optional<int32_t> category;
  std::optional<int64_t> color;  // ARGB as an unsigned 32-bit value
  std::optional<std::string> text;
  int64_t global_tid = 0;
  std::optional<int64_t> end_global_tid;
  std::optional<StringId> text_id;
  std::optional<int64_t> domain_id;
  // Payload: at most one of these is set.
  std::optional<int64_t> uint64_value;  // stored as the two's-complement bit pattern
  std::optional<int64_t> int64_value;
  std::optional<double> double_value;
  std::optional<int64_t> uint32_value;
  std::optional<int64_t> int32_value;
  std::optional<double> float_value;
  std::optional<StringId> json_text_id;
};

struct OsrtCallRow {
  int64_t start = 0;
  int64_t end = 0;
  int64_t global_tid = 0;
  StringId name_id = 0;
  int64_t return_value = 0;
  int32_t nesting_level = 0;
};

// OSRT_API.eventClass of every OS-runtime call: TRACE_PROCESS_EVENT_OS_RUNTIME.
inline constexpr int64_t kOsRuntimeEventClass = 27;

// A table reads as its columns, one per line, aligned.
// clang-format off
// NVTX ranges and marks; eventType refers to ENUM_NSYS_EVENT_TYPE(id), textId and jsonTextId to
// StringIds(id).
inline constexpr auto kNvtxEventsTable = DefineTable<NvtxEventRow>("NVTX_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",        kIntegerNotNull, &NvtxEventRow::start),
    Column("end",          kInteger,        &NvtxEventRow::end),
    Column("eventType",    kIntegerNotNull, &NvtxEventRow::event_type, kEnumNsysEventType),
    Column("rangeId",      kInteger,        &NvtxEventRow::range_id),
    Column("category",     kInteger,        &NvtxEventRow::category),
    Column("color",        kInteger,        &NvtxEventRow::color),
    Column("text",         kText,           &NvtxEventRow::text),
    Column("globalTid",    kInteger,        &NvtxEventRow::global_tid),
    Column("endGlobalTid", kInteger,        &NvtxEventRow::end_global_tid),
    Column("textId",       kInteger,        &NvtxEventRow::text_id),
    Column("domainId",     kInteger,        &NvtxEventRow::domain_id),
    Column("uint64Value",  kInteger,        &NvtxEventRow::uint64_value),
    Column("int64Value",   kInteger,        &NvtxEventRow::int64_value),
    Column("doubleValue",  kReal,           &NvtxEventRow::double_value),
    Column("uint32Value",  kInteger,        &NvtxEventRow::uint32_value),
    Column("int32Value",   kInteger,        &NvtxEventRow::int32_value),
    Column("floatValue",   kReal,           &NvtxEventRow::float_value),
    Column("jsonTextId",   kInteger,        &NvtxEventRow::json_text_id),
    Unfilled("jsonText",   kText),
    Unfilled("binaryData", kText))).CountedAs("NVTX events");

// OS runtime (libc/pthread) calls; eventClass refers to ENUM_NSYS_EVENT_CLASS(id), nameId to
// StringIds(id); callchainId is 0 (no backtraces).
inline constexpr auto kOsrtApiTable = DefineTable<OsrtCallRow>("OSRT_API", TableCreation::kOnFirstRow, ColumnList(
    Column("start",        kIntegerNotNull, &OsrtCallRow::start),
    Column("end",          kIntegerNotNull, &OsrtCallRow::end),
    Fixed("eventClass",    kIntegerNotNull, kOsRuntimeEventClass, kEnumNsysEventClass),
    Column("globalTid",    kInteger,        &OsrtCallRow::global_tid),
    Column("nameId",       kIntegerNotNull, &OsrtCallRow::name_id),
    Column("returnValue",  kIntegerNotNull, &OsrtCallRow::return_value),
    Column("nestingLevel", kInteger,        &OsrtCallRow::nesting_level),
    Fixed("callchainId",   kIntegerNotNull, int64_t{0}))).CountedAs("OS runtime calls");
// clang-format on

}  // namespace prof::storage
