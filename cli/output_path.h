// Report names as nsys spells them: -o with %p (the program's pid), %h (host name), %q{VAR} (an
// environment variable), %% (a percent sign); ".sqlite" appended when missing; without -o the first
// free name of report1.sqlite, report2.sqlite, ... in the working directory.
#pragma once

#include <sys/types.h>

#include <string>

#include "common/status.h"

namespace prof::cli {

// Expands the % sequences of `pattern`; an unknown sequence or an unset variable is an error.
Status ExpandOutputPattern(const std::string& pattern, pid_t pid, std::string* expanded);

// The report path for `pattern` (empty = default names). Without `force_overwrite`, an existing file
// is an error that leaves the file untouched.
Status ResolveReportPath(const std::string& pattern, pid_t pid, bool force_overwrite,
                         std::string* path);

}  // namespace prof::cli
