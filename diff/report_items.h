// Reads the diff items of one report (prof's or an nsys SQLite export): every kind of
// item_queries.h whose tables the report has, and the report's traced span (run_span.h). The file
// is opened read-only and never modified: option tables, stand-ins and views are TEMP, on the
// connection only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"
#include "diff/diff_item.h"

namespace prof::diff {

// How items are named and which range is compared; the command line checks the values.
struct ItemOptions {
  // "name" (a kernel is its name) or "name+grid+block" (its name and launch dimensions).
  std::string kernel_key = "name";
  // "demangled", "base" or "mangled" (stats/views/cuda_kernels.sql).
  std::string kernel_name = "demangled";
  // The NVTX range compared per instance (kind range), if any.
  std::optional<std::string> range;
};

// One report as `prof diff` compares it.
struct LoadedReport {
  ReportItems items;
  int64_t run_ns = 0;  // the traced span, first event to last
};

// Fails when the file is missing, is not a report, or a query fails.
Status LoadReport(const std::string& path, const ItemOptions& options, LoadedReport* out);

}  // namespace prof::diff
