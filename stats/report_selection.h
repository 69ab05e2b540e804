// Which reports one `prof stats` run produces.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "stats/report_registry.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// The reports named in `requested`, in the order given, each once; an unknown name fails with the
// list of valid ones. With no names: every default report whose tables `db` has, in registry
// order (a file without OSRT_API gets no osrt_sum, as nsys skips reports without data silently).
Status SelectReports(const std::vector<std::string>& requested, storage::Database* db,
                     std::vector<const ReportSpec*>* out);

}  // namespace prof::stats
