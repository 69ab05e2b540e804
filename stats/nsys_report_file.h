// Recognizes the files of Nsight Systems that are not SQLite (.nsys-rep, the older .qdrep, the raw
// .qdstrm capture stream), so that a reader given one says how to make the .sqlite it needs
// instead of "not an SQLite database".
#pragma once

#include <optional>
#include <string>

#include "common/status.h"

namespace prof::stats {

// The error for `path` when its name is an nsys report's (by extension) and it could not be
// opened as SQLite (called after that failed, so an exported file renamed .nsys-rep still opens);
// nullopt otherwise.
std::optional<Status> NsysReportFileError(const std::string& path);

}  // namespace prof::stats
