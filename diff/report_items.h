// Reads the diff items of one report (prof's or an nsys SQLite export): every kind of
// item_queries.h whose tables the report has. The file is opened read-only and never modified:
// option tables, stand-ins and views are TEMP, on the connection only.
#pragma once

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

// Fails when the file is missing, is not a report, or a query fails.
Status LoadReportItems(const std::string& path, const ItemOptions& options, ReportItems* out);

}  // namespace prof::diff
