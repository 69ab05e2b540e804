// The SQL files of diff/queries/, compiled into prof_diff: `prof diff` never reads SQL from disk
// at run time.
#pragma once

#include "common/embedded_files.h"

namespace prof::diff {

// Every embedded file, sorted by path relative to diff/ (e.g. "queries/kernel.sql").
const std::vector<EmbeddedFile>& EmbeddedQueryFiles();

}  // namespace prof::diff
