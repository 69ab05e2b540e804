// `prof export`: writes a report (prof's or an nsys SQLite export) in another format. The report
// is opened read-only and never modified.
//
// Contract: the output is written under a temporary name next to it and renamed when complete, so
// a failed export never leaves a half-written file under the output's name.
#pragma once

#include <string>

#include "common/status.h"

namespace prof::exporter {

struct ExportOptions {
  std::string type;    // a name of export_types.h
  std::string output;  // empty: the report's path with its extension replaced by the type's
  bool force_overwrite = false;
  // Compress with gzip; also implied by an output name that ends in ".gz". With the default name,
  // ".gz" is appended.
  bool gzip = false;
};

// Exports `report_path`; on success `*written` is the output's path.
Status RunExport(const std::string& report_path, const ExportOptions& options,
                 std::string* written);

}  // namespace prof::exporter
