// `prof stats --help-reports[=NAME|ALL]`, as nsys's: the reports one line each, or a report's
// longer description. The description is the header comment of the report's SQL
// (stats/reports/<name>.sql), so it is written once, next to the query it describes.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace prof::stats {

// A heading, a blank line, then "  <name>[:<option>|...] -- <title>" per report.
std::string ReportListText();

// `name`'s description: its SQL header comment, its options, whether it runs by default; "ALL":
// every report's, a blank line apart. Fails on an unknown name with the list of reports.
StatusOr<std::string> ReportHelpText(std::string_view name);

}  // namespace prof::stats
