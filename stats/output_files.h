// The files `prof stats -o <prefix>` writes: `<prefix>_<report>.<extension>`, one per report.
// Callers check every target with CheckOutputFile before writing any, so that a run that fails
// leaves no file behind.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace prof::stats {

std::string OutputPath(const std::string& prefix, std::string_view report,
                       std::string_view extension);

// Fails when `path` exists (unless `force_overwrite`), is a directory, or its directory is missing
// or not writable.
Status CheckOutputFile(const std::string& path, bool force_overwrite);

// Fails when `path` is one of the `inputs` (the same file under any name): --force-overwrite must
// never replace a report being read.
Status CheckNotAnInput(const std::string& path, const std::vector<std::string>& inputs);

// Writes `text` to `path`, replacing any file there.
Status WriteOutputFile(const std::string& path, const std::string& text);

}  // namespace prof::stats
