// Which reports one `prof stats` run produces, and with which options.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "stats/report_registry.h"
#include "storage/sqlite_database.h"

namespace prof::stats {

// One report to run: `-r <name>[:<option>...]`.
struct ReportRequest {
  const ReportSpec* report = nullptr;
  // Options as given, each one of report->options, each once.
  std::vector<std::string> options;

  // "<name>[:<option>...]", as spelled on the command line (title lines).
  std::string Spelling() const;
  // "<name>[_<option>...]", the report's part of an output file name.
  std::string FileStem() const;
};

// The reports named in `requested` ("<name>[:<option>...]"), in the order given, each name and
// option set once; an unknown name fails with the list of valid ones, an option the report does
// not accept with the list of its options. With no names: every default report whose tables `db`
// has, without options, in registry order (a file without OSRT_API gets no osrt_sum, as nsys
// skips reports without data silently).
Status SelectReports(const std::vector<std::string>& requested, storage::Database* db,
                     std::vector<ReportRequest>* out);

}  // namespace prof::stats
