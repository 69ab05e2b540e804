// The report schema: which tables a report holds, and that their columns are nsys's.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "storage/batch_inserter.h"
#include "storage/global_id.h"
#include "storage/schema_catalog.h"
#include "tests/storage/storage_test_util.h"
#include "tests/support/test_support.h"

namespace prof::storage {
namespace {

using test::CreateWriter;
using test::FinishWriter;
using test::FreshReportPath;
using test::TableNames;
using Strings = std::vector<std::string>;

const Strings kAlwaysTables = {"META_DATA_CAPTURE", "META_DATA_EXPORT",
                               "PROCESSES",         "PROF_SESSION",
                               "StringIds",         "TARGET_INFO_SESSION_START_TIME",
                               "ThreadNames"};

NvtxEventRow SomeNvtxRow() {
  NvtxEventRow row;
  row.start = 10;
  row.end = 20;
  row.event_type = 59;
  row.text = "step";
  row.global_tid = GlobalTid(490, 490);
  return row;
}

OsrtCallRow SomeOsrtRow(ReportWriter* writer) {
  OsrtCallRow row;
  row.start = 30;
  row.end = 40;
  row.global_tid = GlobalTid(490, 490);
  row.name_id = writer->InternString("read");
  return row;
}

// One row in each CUDA table, so that every table exists.
void AddOneRowPerCudaTable(ReportWriter* writer) {
  writer->Add<kCuptiActivityKindRuntimeTable>(CudaApiCallRow{});
  writer->Add<kCuptiActivityKindKernelTable>(CudaKernelRow{});
  writer->Add<kCuptiActivityKindMemcpyTable>(CudaMemcpyRow{});
  writer->Add<kCuptiActivityKindMemsetTable>(CudaMemsetRow{});
  writer->Add<kCuptiActivityKindSynchronizationTable>(CudaSyncRow{});
  writer->Add<kCuptiActivityKindGraphTraceTable>(CudaGraphTraceRow{});
  writer->Add<kCuptiActivityKindCudaEventTable>(CudaEventRow{});
  writer->Add<kCudaGraphEventsTable>(CudaGraphEventRow{});
  writer->Add<kCudaGpuMemoryUsageEventsTable>(CudaMemoryUsageRow{});
  writer->Add<kTargetInfoGpuTable>(GpuInfoRow{});
  writer->Add<kTargetInfoCudaDeviceTable>(CudaDeviceRow{});
  writer->Add<kTargetInfoCudaStreamTable>(CudaStreamRow{});
  writer->Add<kTargetInfoCudaContextInfoTable>(CudaContextRow{});
}

TEST_CASE("an empty report holds only the tables nsys always writes", "[storage][schema]") {
  const std::string path = FreshReportPath("schema-empty");
  auto writer = CreateWriter(path);
  FinishWriter(writer.get());
  CHECK(TableNames(path) == kAlwaysTables);
}

TEST_CASE("tables appear with their first row - with the enums they refer to",
          "[storage][schema]") {
  SECTION("NVTX only") {
    const std::string path = FreshReportPath("schema-nvtx");
    auto writer = CreateWriter(path);
    writer->Add<kNvtxEventsTable>(SomeNvtxRow());
    FinishWriter(writer.get());
    CHECK(TableNames(path) == Strings{"ENUM_NSYS_EVENT_TYPE", "META_DATA_CAPTURE",
                                      "META_DATA_EXPORT", "NVTX_EVENTS", "PROCESSES",
                                      "PROF_SESSION", "StringIds", "TARGET_INFO_SESSION_START_TIME",
                                      "ThreadNames"});
  }
  SECTION("NVTX and OS runtime") {
    const std::string path = FreshReportPath("schema-both");
    auto writer = CreateWriter(path);
    writer->Add<kOsrtApiTable>(SomeOsrtRow(writer.get()));
    writer->Add<kNvtxEventsTable>(SomeNvtxRow());
    FinishWriter(writer.get());
    CHECK(TableNames(path) == Strings{"ENUM_NSYS_EVENT_CLASS", "ENUM_NSYS_EVENT_TYPE",
                                      "META_DATA_CAPTURE", "META_DATA_EXPORT", "NVTX_EVENTS",
                                      "OSRT_API", "PROCESSES", "PROF_SESSION", "StringIds",
                                      "TARGET_INFO_SESSION_START_TIME", "ThreadNames"});
  }
  SECTION("CUDA kernels") {
    const std::string path = FreshReportPath("schema-kernel");
    auto writer = CreateWriter(path);
    writer->Add<kCuptiActivityKindKernelTable>(CudaKernelRow{});
    FinishWriter(writer.get());
    CHECK(TableNames(path) == Strings{"CUPTI_ACTIVITY_KIND_KERNEL", "ENUM_CUDA_FUNC_CACHE_CONFIG",
                                      "ENUM_CUDA_KERNEL_LAUNCH_TYPE",
                                      "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", "META_DATA_CAPTURE",
                                      "META_DATA_EXPORT", "PROCESSES", "PROF_SESSION", "StringIds",
                                      "TARGET_INFO_SESSION_START_TIME", "ThreadNames"});
  }
  SECTION("CUDA memcpy and memset share ENUM_CUDA_MEM_KIND") {
    const std::string path = FreshReportPath("schema-memops");
    auto writer = CreateWriter(path);
    writer->Add<kCuptiActivityKindMemcpyTable>(CudaMemcpyRow{});
    writer->Add<kCuptiActivityKindMemsetTable>(CudaMemsetRow{});
    FinishWriter(writer.get());
    CHECK(TableNames(path) == Strings{"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                                      "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND",
                                      "META_DATA_CAPTURE", "META_DATA_EXPORT", "PROCESSES",
                                      "PROF_SESSION", "StringIds", "TARGET_INFO_SESSION_START_TIME",
                                      "ThreadNames"});
    CHECK(prof::test::QueryRows(path, "SELECT count(*) FROM ENUM_CUDA_MEM_KIND")[0][0] == "8");
  }
  SECTION("CPU samples with their stacks") {
    const std::string path = FreshReportPath("schema-samples");
    auto writer = CreateWriter(path);
    writer->Add<kCompositeEventsTable>(CpuSampleRow{});
    writer->Add<kSamplingCallchainsTable>(SamplingFrameRow{});
    FinishWriter(writer.get());
    CHECK(TableNames(path) == Strings{"COMPOSITE_EVENTS", "ENUM_SAMPLING_THREAD_STATE",
                                      "ENUM_STACK_UNWIND_METHOD", "META_DATA_CAPTURE",
                                      "META_DATA_EXPORT", "PROCESSES", "PROF_SESSION",
                                      "SAMPLING_CALLCHAINS", "StringIds",
                                      "TARGET_INFO_SESSION_START_TIME", "ThreadNames"});
  }
  SECTION("CUDA memory usage with its two enums") {
    const std::string path = FreshReportPath("schema-memory-usage");
    auto writer = CreateWriter(path);
    writer->Add<kCudaGpuMemoryUsageEventsTable>(CudaMemoryUsageRow{});
    FinishWriter(writer.get());
    CHECK(TableNames(path) ==
          Strings{"CUDA_GPU_MEMORY_USAGE_EVENTS", "ENUM_CUDA_DEV_MEM_EVENT_OPER",
                  "ENUM_CUDA_MEM_KIND", "META_DATA_CAPTURE", "META_DATA_EXPORT", "PROCESSES",
                  "PROF_SESSION", "StringIds", "TARGET_INFO_SESSION_START_TIME", "ThreadNames"});
  }
}

// table -> "cid|name|type|notnull|pk" per column, from tests/storage/data/nsys_columns.tsv.
std::map<std::string, Strings> ReferenceColumns() {
  std::ifstream file(test::DataFile("nsys_columns.tsv"));
  REQUIRE(file);
  std::map<std::string, Strings> columns;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string table, cid, name, type, not_null, pk;
    std::getline(fields, table, '\t');
    std::getline(fields, cid, '\t');
    std::getline(fields, name, '\t');
    std::getline(fields, type, '\t');
    std::getline(fields, not_null, '\t');
    std::getline(fields, pk, '\t');
    columns[table].push_back(cid + "|" + name + "|" + type + "|" + not_null + "|" + pk);
  }
  return columns;
}

Strings ReportColumns(const std::string& path, const std::string& table) {
  Strings columns;
  for (const auto& row : prof::test::QueryRows(
           path,
           "SELECT cid, name, type, \"notnull\", pk FROM pragma_table_info('" + table + "')")) {
    columns.push_back(row[0] + "|" + row[1] + "|" + row[2] + "|" + row[3] + "|" + row[4]);
  }
  return columns;
}

TEST_CASE("every nsys table prof writes has nsys's columns - types and keys", "[storage][schema]") {
  const std::string path = FreshReportPath("schema-columns");
  auto writer = CreateWriter(path);
  writer->Add<kOsrtApiTable>(SomeOsrtRow(writer.get()));
  writer->Add<kNvtxEventsTable>(SomeNvtxRow());
  writer->Add<kDiagnosticEventTable>({100, "prof lost 1 records of this process", 42});
  AddOneRowPerCudaTable(writer.get());
  writer->Add<kCompositeEventsTable>(CpuSampleRow{});
  writer->Add<kSamplingCallchainsTable>(SamplingFrameRow{});
  writer->Add<kOsrtCallchainsTable>(SamplingFrameRow{});
  writer->Add<kSchedEventsTable>(SchedEventRow{});
  FinishWriter(writer.get());

  const std::map<std::string, Strings> reference = ReferenceColumns();
  REQUIRE(reference.size() == 42);
  for (const auto& [table, columns] : reference) {
    INFO("table " << table);
    CHECK(ReportColumns(path, table) == columns);
  }
  CHECK(ReportColumns(path, "PROF_SESSION") == Strings{"0|name|TEXT|1|0", "1|value|TEXT|0|0"});
}

TEST_CASE("each table's definition gives its DDL, its INSERT columns and its enums",
          "[storage][schema]") {
  REQUIRE(KnownTables().size() == 50);
  std::set<std::string> names;  // ReportWriter::Add finds a table by its name
  for (const TableSpec& spec : KnownTables()) CHECK(names.insert(spec.name).second);
  for (const TableSpec& spec : KnownTables()) {
    INFO("table " << spec.name);
    CHECK(spec.ddl.rfind("CREATE TABLE " + spec.name + " (\n", 0) == 0);
    for (const std::string& enum_table : spec.enum_tables)
      CHECK(FindTableSpec(enum_table) != nullptr);
  }
  CHECK(FindTableSpec("CUDA_GRAPH_NODE_EVENTS") == nullptr);
  const TableSpec& osrt = *FindTableSpec("OSRT_API");
  CHECK(osrt.ddl ==
        "CREATE TABLE OSRT_API (\n"
        "    start                       INTEGER NOT NULL,\n"
        "    end                         INTEGER NOT NULL,\n"
        "    eventClass                  INTEGER NOT NULL,\n"
        "    globalTid                   INTEGER,\n"
        "    nameId                      INTEGER NOT NULL,\n"
        "    returnValue                 INTEGER NOT NULL,\n"
        "    nestingLevel                INTEGER,\n"
        "    callchainId                 INTEGER NOT NULL\n"
        ");");
  CHECK(osrt.insert_columns ==
        "start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, callchainId");
  CHECK(osrt.insert_column_count == 8);
  CHECK(osrt.enum_tables == std::vector<std::string>{"ENUM_NSYS_EVENT_CLASS"});
  // Columns prof never fills are in the DDL, not in the INSERT.
  const TableSpec& nvtx = *FindTableSpec("NVTX_EVENTS");
  CHECK(nvtx.ddl.find("    binaryData                  TEXT\n);") != std::string::npos);
  CHECK(nvtx.insert_columns.find("binaryData") == std::string::npos);
  CHECK(nvtx.insert_column_count == 18);
  CHECK(FindTableSpec("CUDA_CALLCHAINS")->ddl.find(",\n\n    PRIMARY KEY (id, stackDepth)\n);") !=
        std::string::npos);
  CHECK(FindTableSpec("ENUM_CUDA_MEM_KIND")->ddl ==
        "CREATE TABLE ENUM_CUDA_MEM_KIND (\n"
        "    id                          INTEGER NOT NULL PRIMARY KEY,\n"
        "    name                        TEXT,\n"
        "    label                       TEXT\n"
        ");");
  CHECK(FindTableSpec("CUPTI_ACTIVITY_KIND_MEMCPY")->enum_tables ==
        std::vector<std::string>{"ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND"});
  const TableSpec& frames = *FindTableSpec("SAMPLING_CALLCHAINS");
  CHECK(frames.insert_columns ==
        "id, symbol, module, kernelMode, thumbCode, unresolved, specialEntry, originalIP, "
        "unwindMethod, stackDepth");
  CHECK(frames.enum_tables == std::vector<std::string>{"ENUM_STACK_UNWIND_METHOD"});
  CHECK(FindTableSpec("SCHED_EVENTS")->enum_tables ==
        std::vector<std::string>{"ENUM_SAMPLING_THREAD_STATE", "ENUM_SCHEDULING_THREAD_BLOCK"});
}

TEST_CASE("enum rows are nsys's", "[storage][schema]") {
  const std::vector<EnumRow> types = EnumRows("ENUM_NSYS_EVENT_TYPE");
  const std::vector<EnumRow> classes = EnumRows("ENUM_NSYS_EVENT_CLASS");
  CHECK(types.size() == 150);
  CHECK(classes.size() == 89);
  CHECK(EnumRows("NVTX_EVENTS").empty());
  CHECK(EnumRows("ENUM_CUDA_MEMCPY_OPER").size() == 14);
  CHECK(EnumRows("ENUM_CUDA_MEM_KIND").size() == 8);
  CHECK(EnumRows("ENUM_CUPTI_SYNC_TYPE").size() == 5);
  CHECK(EnumRows("ENUM_CUDA_KERNEL_LAUNCH_TYPE").size() == 4);
  CHECK(EnumRows("ENUM_CUDA_FUNC_CACHE_CONFIG").size() == 4);
  CHECK(EnumRows("ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG").size() == 2);
  CHECK(EnumRows("ENUM_CUPTI_STREAM_TYPE").size() == 4);
  CHECK(EnumRows("ENUM_CUDA_DEV_MEM_EVENT_OPER").size() == 2);
  CHECK(EnumRows("ENUM_DIAGNOSTIC_SEVERITY_LEVEL").size() == 5);
  CHECK(EnumRows("ENUM_DIAGNOSTIC_SOURCE_TYPE").size() == 4);
  CHECK(EnumRows("ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE").size() == 3);
  CHECK(EnumRows("ENUM_SAMPLING_THREAD_STATE").size() == 11);
  CHECK(EnumRows("ENUM_SCHEDULING_THREAD_BLOCK").size() == 53);
  // 0-8 and 1000 (Undefined); prof's Python frames' 1001 is deliberately not a row.
  CHECK(EnumRows("ENUM_STACK_UNWIND_METHOD").size() == 10);
  CHECK(EnumRows("ENUM_STACK_UNWIND_METHOD").back().id == 1000);
  const std::vector<EnumRow> mem_kinds = EnumRows("ENUM_CUDA_MEM_KIND");
  CHECK(mem_kinds.front().name == "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE");
  CHECK(mem_kinds.back().id == 7);
  CHECK(mem_kinds.back().label == "Unknown");
  std::map<int64_t, std::string> type_names;
  for (const EnumRow& row : types) type_names[row.id] = std::string(row.name);
  CHECK(type_names.at(34) == "NvtxMark");
  CHECK(type_names.at(59) == "NvtxPushPopRange");
  CHECK(type_names.at(60) == "NvtxStartEndRange");
  CHECK(type_names.at(75) == "NvtxDomainCreate");

  const std::string path = FreshReportPath("schema-enums");
  auto writer = CreateWriter(path);
  writer->Add<kOsrtApiTable>(SomeOsrtRow(writer.get()));
  FinishWriter(writer.get());
  CHECK(prof::test::QueryRows(path, "SELECT count(*) FROM ENUM_NSYS_EVENT_CLASS")[0][0] == "89");
  CHECK(
      prof::test::QueryRows(path, "SELECT name, label FROM ENUM_NSYS_EVENT_CLASS WHERE id = 27") ==
      std::vector<Strings>{{"TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime"}});

  // The values prof writes into DIAGNOSTIC_EVENT name themselves through its enum tables.
  const std::string diagnostics = FreshReportPath("schema-diagnostic-enums");
  auto diagnostics_writer = CreateWriter(diagnostics);
  diagnostics_writer->Add<kDiagnosticEventTable>({100, "prof lost 1 records of this process", 42});
  FinishWriter(diagnostics_writer.get());
  CHECK(prof::test::QueryRows(diagnostics,
                              "SELECT t.name, s.name, v.name FROM DIAGNOSTIC_EVENT d "
                              "JOIN ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE t ON t.id = d.timestampType "
                              "JOIN ENUM_DIAGNOSTIC_SOURCE_TYPE s ON s.id = d.source "
                              "JOIN ENUM_DIAGNOSTIC_SEVERITY_LEVEL v ON v.id = d.severity") ==
        std::vector<Strings>{{"HostTimestamp", "Daemon", "Warning"}});
}

TEST_CASE("INSERTs name their columns", "[storage][schema]") {
  const TableSpec two{"T", TableCreation::kOnFirstRow, {}, "", "a, b", 2, ""};
  const TableSpec one{"T", TableCreation::kOnFirstRow, {}, "", "a", 1, ""};
  CHECK(BatchInserter::InsertSql(two, 3) == "INSERT INTO T (a, b) VALUES (?, ?), (?, ?), (?, ?)");
  CHECK(BatchInserter::InsertSql(one, 1) == "INSERT INTO T (a) VALUES (?)");
}

}  // namespace
}  // namespace prof::storage
