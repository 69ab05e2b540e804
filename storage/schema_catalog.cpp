#include "storage/schema_catalog.h"

#include <cctype>
#include <charconv>

#include "storage/embedded_schema.h"

namespace prof::storage {
namespace {

// Splits `text` at `separator`; the last piece runs to the end.
std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  size_t begin = 0;
  for (size_t end = text.find(separator); end != std::string_view::npos;
       end = text.find(separator, begin)) {
    pieces.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  pieces.push_back(text.substr(begin));
  return pieces;
}

}  // namespace

const std::vector<TableSpec>& KnownTables() {
  static const std::vector<TableSpec> tables = {
      {"StringIds", TableCreation::kAlways, {}},
      {"META_DATA_EXPORT", TableCreation::kAlways, {}},
      {"META_DATA_CAPTURE", TableCreation::kAlways, {}},
      {"TARGET_INFO_SESSION_START_TIME", TableCreation::kAlways, {}},
      {"PROCESSES", TableCreation::kAlways, {}},
      {"ThreadNames", TableCreation::kAlways, {}},
      {"PROF_SESSION", TableCreation::kAlways, {}},
      {"NVTX_EVENTS", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_TYPE"}},
      {"OSRT_API", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_CLASS"}},
      {"CUPTI_ACTIVITY_KIND_RUNTIME", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_CLASS"}},
      {"CUPTI_ACTIVITY_KIND_KERNEL",
       TableCreation::kOnFirstRow,
       {"ENUM_CUDA_KERNEL_LAUNCH_TYPE", "ENUM_CUDA_FUNC_CACHE_CONFIG",
        "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG"}},
      {"CUPTI_ACTIVITY_KIND_MEMCPY",
       TableCreation::kOnFirstRow,
       {"ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND"}},
      {"CUPTI_ACTIVITY_KIND_MEMSET", TableCreation::kOnFirstRow, {"ENUM_CUDA_MEM_KIND"}},
      {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", TableCreation::kOnFirstRow, {"ENUM_CUPTI_SYNC_TYPE"}},
      {"CUPTI_ACTIVITY_KIND_GRAPH_TRACE", TableCreation::kOnFirstRow, {}},
      {"CUPTI_ACTIVITY_KIND_CUDA_EVENT", TableCreation::kOnFirstRow, {}},
      {"CUDA_GRAPH_EVENTS", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_CLASS"}},
      {"CUDA_CALLCHAINS", TableCreation::kOnFirstRow, {}},
      {"MPI_RANKS", TableCreation::kOnFirstRow, {}},
      {"CUBLAS_EVENTS", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_CLASS"}},
      {"CUDNN_EVENTS", TableCreation::kOnFirstRow, {"ENUM_NSYS_EVENT_CLASS"}},
      {"CUDA_GPU_MEMORY_USAGE_EVENTS",
       TableCreation::kOnFirstRow,
       {"ENUM_CUDA_MEM_KIND", "ENUM_CUDA_DEV_MEM_EVENT_OPER"}},
      {"DIAGNOSTIC_EVENT",
       TableCreation::kOnFirstRow,
       {"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", "ENUM_DIAGNOSTIC_SOURCE_TYPE",
        "ENUM_DIAGNOSTIC_SEVERITY_LEVEL"}},
      {"TARGET_INFO_GPU", TableCreation::kOnFirstRow, {}},
      {"TARGET_INFO_CUDA_DEVICE", TableCreation::kOnFirstRow, {}},
      {"TARGET_INFO_CUDA_STREAM", TableCreation::kOnFirstRow, {"ENUM_CUPTI_STREAM_TYPE"}},
      {"TARGET_INFO_CUDA_CONTEXT_INFO", TableCreation::kOnFirstRow, {}},
      {"ENUM_NSYS_EVENT_TYPE", TableCreation::kOnFirstRow, {}},
      {"ENUM_NSYS_EVENT_CLASS", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_MEMCPY_OPER", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_MEM_KIND", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUPTI_SYNC_TYPE", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_KERNEL_LAUNCH_TYPE", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_FUNC_CACHE_CONFIG", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUPTI_STREAM_TYPE", TableCreation::kOnFirstRow, {}},
      {"ENUM_CUDA_DEV_MEM_EVENT_OPER", TableCreation::kOnFirstRow, {}},
      {"ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", TableCreation::kOnFirstRow, {}},
      {"ENUM_DIAGNOSTIC_SOURCE_TYPE", TableCreation::kOnFirstRow, {}},
      {"ENUM_DIAGNOSTIC_SEVERITY_LEVEL", TableCreation::kOnFirstRow, {}},
  };
  return tables;
}

const TableSpec* FindTableSpec(std::string_view name) {
  for (const TableSpec& spec : KnownTables()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string SchemaFileStem(std::string_view table_name) {
  std::string stem(table_name);
  for (char& c : stem) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return stem;
}

std::optional<std::string_view> TableDdl(std::string_view table_name) {
  return FindSchemaFile("tables/" + SchemaFileStem(table_name) + ".sql");
}

std::vector<EnumRow> EnumRows(std::string_view table_name) {
  std::vector<EnumRow> rows;
  const std::optional<std::string_view> tsv = FindSchemaFile("enum_rows.tsv");
  if (!tsv) return rows;
  // Columns: table, id, name, label; the first line is the header.
  const std::vector<std::string_view> lines = Split(*tsv, '\n');
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> fields = Split(lines[i], '\t');
    if (fields.size() != 4 || fields[0] != table_name) continue;
    EnumRow row{0, fields[2], fields[3]};
    std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), row.id);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace prof::storage
