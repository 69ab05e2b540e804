// `prof merge -o all.sqlite r0.sqlite r1.sqlite ...`: one report with every process of several
// reports (the ranks of a multi-GPU job), on one time base (merge/merge_runner.h).
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeMergeCommand();

}  // namespace prof::cli
