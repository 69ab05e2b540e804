// Report names as nsys spells them: -o with %p (the program's pid), %h (host name), %q{VAR} (an
// environment variable), %% (a percent sign); ".sqlite" appended when missing; without -o the first
// free name of report1.sqlite, report2.sqlite, ... in the working directory.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "common/status.h"

namespace prof::cli {

// Expands the % sequences of `pattern`; an unknown sequence or an unset variable is an error.
Status ExpandOutputPattern(const std::string& pattern, pid_t pid, std::string* expanded);

// The report path for `pattern` (empty = default names). Without `force_overwrite`, an existing file
// is an error that leaves the file untouched.
Status ResolveReportPath(const std::string& pattern, pid_t pid, bool force_overwrite,
                         std::string* path);

// `path` with `.N` before its extension, as nsys numbers the reports of repeated captures
// (--capture-range-end=repeat): run.sqlite becomes run.1.sqlite, run.2.sqlite, ...
std::string NumberedReportPath(const std::string& path, uint32_t number);

// ResolveReportPath for the report of the `number`th repeated capture: the numbered form of the
// resolved name, checked the same way (the unnumbered name itself is never written).
Status ResolveNumberedReportPath(const std::string& pattern, pid_t pid, uint32_t number,
                                 bool force_overwrite, std::string* path);

}  // namespace prof::cli
