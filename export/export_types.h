// The formats `prof export --type` writes, chosen by name. Adding one: write a TimelineSink for it
// and add a row to kExportTypes in export_types.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "export/output_stream.h"
#include "export/timeline.h"

namespace prof::exporter {

struct ExportType {
  std::string_view name;       // the --type value
  std::string_view alias;      // another --type value for it (empty: none)
  std::string_view extension;  // of the default output name, with the dot
  // The writer for the format; null for "sqlite", which copies the report itself.
  std::unique_ptr<TimelineSink> (*make_writer)(OutputStream* out);
};

// The type called `name` (or its alias); an error naming the valid types when there is none,
// which says so when `name` is one of nsys export's types that prof does not write.
StatusOr<const ExportType*> FindExportType(std::string_view name);
// "chrome, perfetto, jsonl (alias jsonlines), sqlite": for help and error texts.
std::string ExportTypeNames();

}  // namespace prof::exporter
