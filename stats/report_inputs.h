// The report files that `prof stats` and `prof analyze` read, from what the command line names:
// many ranks' reports are given as a directory or a pattern rather than one argument each (256
// paths outgrow some shells' command lines, and a quoted pattern is expanded the same everywhere).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace prof::stats {

// Each argument in order: a directory becomes its `*.sqlite` files (not its subdirectories'),
// sorted by name; an argument holding `*`, `?` or `[` that names no existing file is a glob(3)
// pattern and becomes the files it matches, sorted; anything else is kept as given (a missing file
// is the report opener's error). A directory without reports or a pattern without matches fails
// with one line naming it.
Status ExpandReportInputs(const std::vector<std::string>& arguments, std::vector<std::string>* out);

}  // namespace prof::stats
