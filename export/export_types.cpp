#include "export/export_types.h"

#include <array>

#include "common/named_entries.h"
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

const ExportType* FindExportType(std::string_view name) { return FindByName(kExportTypes, name); }

std::string ExportTypeNames() { return JoinNames(kExportTypes); }

}  // namespace prof::exporter
