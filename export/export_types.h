// The formats `prof export --type` writes, chosen by name. Adding one: write a TimelineSink for it
// and add a row to kExportTypes in export_types.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "export/output_stream.h"
#include "export/timeline.h"

namespace prof::exporter {

struct ExportType {
  std::string_view name;       // the --type value
  std::string_view extension;  // of the default output name, with the dot
  // The writer for the format; null for "sqlite", which copies the report itself.
  std::unique_ptr<TimelineSink> (*make_writer)(OutputStream* out);
};

const ExportType* FindExportType(std::string_view name);
// "chrome, perfetto, jsonl, sqlite": for help and error texts.
std::string ExportTypeNames();

}  // namespace prof::exporter
