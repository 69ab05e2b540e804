// The tables of what the program's threads did on the CPU: NVTX ranges and marks, OS runtime
// calls, CPU samples with their call stacks, and scheduling (thread switches).
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
  int64_t callchain_id = 0;  // OSRT_CALLCHAINS.id of the call's backtrace; 0: none
};

// OSRT_API.eventClass of every OS-runtime call: TRACE_PROCESS_EVENT_OS_RUNTIME.
inline constexpr int64_t kOsRuntimeEventClass = 27;

// One CPU sample of a thread (COMPOSITE_EVENTS); its stack is the SAMPLING_CALLCHAINS rows with
// the same id. Plain integers: a sample is written from the collector thread at the sampling rate.
struct CpuSampleRow {
  int64_t id = 0;  // unique in the report; SAMPLING_CALLCHAINS.id of its frames
  int64_t start = 0;
  int32_t cpu = 0;
  int32_t thread_state = 1;  // ENUM_SAMPLING_THREAD_STATE id: 1 Running
  int64_t global_tid = 0;
  int64_t cpu_cycles = 1;  // 1 for a periodic (timer) sample
};

// One frame of a CPU sample's stack (SAMPLING_CALLCHAINS). A native frame: symbol = function
// name (the hex address, "0x7f12...", with unresolved = 1 when no symbol covers it), module = the
// binary's path, originalIP = the instruction pointer, unwindMethod = kUnwindFramePointer or
// kUnwindDwarfEh. A Python frame (prof's addition): symbol = qualified function name, module = the
// source file's path, originalIP = the line number, unwindMethod = kUnwindPythonFrame.
struct SamplingFrameRow {
  int64_t id = 0;       // COMPOSITE_EVENTS.id of the sample
  StringId symbol = 0;  // StringIds id
  StringId module = 0;  // StringIds id
  int32_t kernel_mode = 0;
  int32_t unresolved = 0;
  int32_t special_entry = 0;  // 1: an entry prof added (none yet)
  int64_t original_ip = 0;
  int32_t unwind_method = 0;  // ENUM_STACK_UNWIND_METHOD id, or kUnwindPythonFrame
  int32_t stack_depth = 0;    // 0: the leaf (innermost frame)
};

// One switch of a thread onto (isSchedIn 1) or off (0) a CPU (SCHED_EVENTS).
struct SchedEventRow {
  int64_t start = 0;
  int32_t cpu = 0;
  int32_t is_sched_in = 0;
  int64_t global_tid = 0;
  std::optional<int32_t> thread_state;  // ENUM_SAMPLING_THREAD_STATE id
  std::optional<int32_t> thread_block;  // ENUM_SCHEDULING_THREAD_BLOCK id
};

// ENUM_SAMPLING_THREAD_STATE id of a thread caught running.
inline constexpr int32_t kThreadStateRunning = 1;
// ENUM_STACK_UNWIND_METHOD ids of native frames.
inline constexpr int32_t kUnwindFramePointer = 1;
inline constexpr int32_t kUnwindDwarfEh = 6;
// SAMPLING_CALLCHAINS.unwindMethod of a Python frame: prof's own value, above every nsys id
// (nsys's largest is 1000, Undefined). ENUM_STACK_UNWIND_METHOD has no row for it, so the enum
// table stays exactly nsys's (docs/report-schema.md, "CPU samples").
inline constexpr int32_t kUnwindPythonFrame = 1001;

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
// StringIds(id), callchainId to OSRT_CALLCHAINS(id) (0: no backtrace).
inline constexpr auto kOsrtApiTable = DefineTable<OsrtCallRow>("OSRT_API", TableCreation::kOnFirstRow, ColumnList(
    Column("start",        kIntegerNotNull, &OsrtCallRow::start),
    Column("end",          kIntegerNotNull, &OsrtCallRow::end),
    Fixed("eventClass",    kIntegerNotNull, kOsRuntimeEventClass, kEnumNsysEventClass),
    Column("globalTid",    kInteger,        &OsrtCallRow::global_tid),
    Column("nameId",       kIntegerNotNull, &OsrtCallRow::name_id),
    Column("returnValue",  kIntegerNotNull, &OsrtCallRow::return_value),
    Column("nestingLevel", kInteger,        &OsrtCallRow::nesting_level),
    Column("callchainId",  kIntegerNotNull, &OsrtCallRow::callchain_id))).CountedAs("OS runtime calls");

// CPU samples, one row per sample; threadState refers to ENUM_SAMPLING_THREAD_STATE(id); the
// stack is SAMPLING_CALLCHAINS(id).
inline constexpr auto kCompositeEventsTable = DefineTable<CpuSampleRow>("COMPOSITE_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("id",          kIntegerPrimaryKey, &CpuSampleRow::id),
    Column("start",       kIntegerNotNull,    &CpuSampleRow::start),
    Column("cpu",         kInteger,           &CpuSampleRow::cpu),
    Column("threadState", kInteger,           &CpuSampleRow::thread_state, kEnumSamplingThreadState),
    Column("globalTid",   kInteger,           &CpuSampleRow::global_tid),
    Column("cpuCycles",   kIntegerNotNull,    &CpuSampleRow::cpu_cycles))).CountedAs("CPU samples");

// The columns of a stack, one row per frame, stackDepth 0 the innermost: symbol and module refer to
// StringIds(id), unwindMethod to ENUM_STACK_UNWIND_METHOD(id) (or prof's kUnwindPythonFrame).
// thumbCode is 0 (no ARM Thumb code).
inline constexpr auto kCallchainColumns = ColumnList(
    Column("id",           kIntegerNotNull, &SamplingFrameRow::id),
    Column("symbol",       kIntegerNotNull, &SamplingFrameRow::symbol),
    Column("module",       kIntegerNotNull, &SamplingFrameRow::module),
    Column("kernelMode",   kInteger,        &SamplingFrameRow::kernel_mode),
    Fixed("thumbCode",     kInteger,        int64_t{0}),
    Column("unresolved",   kInteger,        &SamplingFrameRow::unresolved),
    Column("specialEntry", kInteger,        &SamplingFrameRow::special_entry),
    Column("originalIP",   kInteger,        &SamplingFrameRow::original_ip),
    Column("unwindMethod", kInteger,        &SamplingFrameRow::unwind_method, kEnumStackUnwindMethod),
    Column("stackDepth",   kIntegerNotNull, &SamplingFrameRow::stack_depth));

// The stacks of CPU samples; id refers to COMPOSITE_EVENTS(id).
inline constexpr auto kSamplingCallchainsTable = DefineTable<SamplingFrameRow>("SAMPLING_CALLCHAINS", TableCreation::kOnFirstRow, kCallchainColumns,
    "PRIMARY KEY (id, stackDepth)");

// The backtraces of OS runtime calls (--osrt-backtrace-threshold), one row per frame, stackDepth 0
// the innermost (the call site of the traced function); id is OSRT_API.callchainId, shared by the
// calls of one process made from the same stack.
inline constexpr auto kOsrtCallchainsTable = DefineTable<SamplingFrameRow>("OSRT_CALLCHAINS", TableCreation::kOnFirstRow, kCallchainColumns,
    "PRIMARY KEY (id, stackDepth)");

// Thread switches on each CPU; threadState refers to ENUM_SAMPLING_THREAD_STATE(id), threadBlock
// to ENUM_SCHEDULING_THREAD_BLOCK(id) (why a thread left the CPU).
inline constexpr auto kSchedEventsTable = DefineTable<SchedEventRow>("SCHED_EVENTS", TableCreation::kOnFirstRow, ColumnList(
    Column("start",       kIntegerNotNull, &SchedEventRow::start),
    Column("cpu",         kIntegerNotNull, &SchedEventRow::cpu),
    Column("isSchedIn",   kIntegerNotNull, &SchedEventRow::is_sched_in),
    Column("globalTid",   kInteger,        &SchedEventRow::global_tid),
    Column("threadState", kInteger,        &SchedEventRow::thread_state, kEnumSamplingThreadState),
    Column("threadBlock", kInteger,        &SchedEventRow::thread_block, kEnumSchedulingThreadBlock))).CountedAs("thread switches");
// clang-format on

}  // namespace prof::storage
