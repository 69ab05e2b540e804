#include "export/export_types.h"

#include <algorithm>
#include <array>

#include "export/chrome_trace_writer.h"
#include "export/folded_stack_writer.h"
#include "export/jsonl_writer.h"
#include "export/perfetto_trace_writer.h"

namespace prof::exporter {
namespace {

template <typename Writer>
std::unique_ptr<TimelineSink> Make(OutputStream* out) {
  return std::make_unique<Writer>(out);
}

// "jsonlines": nsys's name (2026.1) of its JSON lines export, so that nsys command lines run; the
// objects written are prof's jsonl (docs/export.md), not nsys's tables.
constexpr std::array<ExportType, 5> kExportTypes = {{
    {"chrome", "", ".json", &Make<ChromeTraceWriter>},
    {"perfetto", "", ".pftrace", &Make<PerfettoTraceWriter>},
    {"jsonl", "jsonlines", ".jsonl", &Make<JsonlWriter>},
    {"folded", "", ".folded", &Make<FoldedStackWriter>},
    {"sqlite", "", ".sqlite", nullptr},
}};

// nsys export's types that prof does not write. nsys's json (removed in nsys 2026.1) is not an
// alias of jsonl: its objects are nsys's, so scripts reading one would misread the other.
constexpr std::array<std::string_view, 7> kNsysOnlyTypes = {
    "hdf", "text", "json", "info", "arrow", "arrowdir", "parquetdir"};

}  // namespace

StatusOr<const ExportType*> FindExportType(std::string_view name) {
  for (const ExportType& type : kExportTypes) {
    if (type.name == name || (!type.alias.empty() && type.alias == name)) return &type;
  }
  const bool nsys_only =
      std::find(kNsysOnlyTypes.begin(), kNsysOnlyTypes.end(), name) != kNsysOnlyTypes.end();
  return Status::Error(
      (nsys_only ? "nsys export type '" + std::string(name) + "' is not implemented by prof"
                 : "unknown export type '" + std::string(name) + "'") +
      "; valid types: " + ExportTypeNames());
}

std::string ExportTypeNames() {
  std::string names;
  for (const ExportType& type : kExportTypes) {
    names += (names.empty() ? "" : ", ") + std::string(type.name);
    if (!type.alias.empty()) names += " (alias " + std::string(type.alias) + ")";
  }
  return names;
}

}  // namespace prof::exporter
