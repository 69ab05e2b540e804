// `prof analyze [options] <report.sqlite>`: rules that name the problems of a report written by
// `prof profile` or exported by nsys, with nsys's option names (analyze/analyze_runner.h).
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeAnalyzeCommand();

}  // namespace prof::cli
