// `prof diff [options] BASE NEW` (or `--base A B... --new C D...`): compares reports written by
// `prof profile` or exported by nsys item by item and gates performance regressions
// (diff/diff_runner.h). Exit codes for CI: 0 nothing regressed, 1 something regressed, 2 error.
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeDiffCommand();

}  // namespace prof::cli
