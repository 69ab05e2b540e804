#include "export/export_types.h"

#include <array>

#include "export/chrome_trace_writer.h"
#include "export/jsonl_writer.h"
#include "export/perfetto_trace_writer.h"

namespace prof::exporter {
namespace {

template <typename Writer>
std::unique_ptr<TimelineSink> Make(OutputStream* out) {
  return std::make_unique<Writer>(out);
}

constexpr std::array<ExportType, 4> kExportTypes = {{
    {"chrome", ".json", &Make<ChromeTraceWriter>},
    {"perfetto", ".pftrace", &Make<PerfettoTraceWriter>},
    {"jsonl", ".jsonl", &Make<JsonlWriter>},
    {"sqlite", ".sqlite", nullptr},
}};

}  // namespace

const ExportType* FindExportType(std::string_view name) {
  for (const ExportType& type : kExportTypes) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

std::string ExportTypeNames() {
  std::string names;
  for (const ExportType& type : kExportTypes) {
    names += (names.empty() ? "" : ", ") + std::string(type.name);
  }
  return names;
}

}  // namespace prof::exporter
