// Report names as nsys spells them: -o with %p (the program's pid), %h (host name), %q{VAR} (an
// environment variable), %% (a percent sign); ".sqlite" appended when missing; without -o
// report1.sqlite, report2.sqlite, ... (report_namer.h picks the first free one).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "common/status.h"

namespace prof::cli {

// Expands the % sequences of `pattern`; an unknown sequence or an unset variable is an error.
Status ExpandOutputPattern(const std::string& pattern, pid_t pid, std::string* expanded);

// The report path for the -o `pattern`: expanded, with ".sqlite" appended when missing.
Status ExpandReportPath(const std::string& pattern, pid_t pid, std::string* path);

// The Nth default report name: reportN.sqlite.
std::string DefaultReportPath(uint32_t number);

// `path` with `.N` before its extension, as nsys numbers the reports of repeated captures
// (--capture-range-end=repeat): run.sqlite becomes run.1.sqlite, run.2.sqlite, ...
std::string NumberedReportPath(const std::string& path, uint32_t number);

}  // namespace prof::cli
