// Declares the shared output options (stats/output_options.h) on a subcommand, with help text
// that names what the command writes ("report" for prof stats, "rule" for prof analyze).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "stats/output_options.h"

namespace prof::cli {

// kOne: one format and one output (prof analyze). kNsysLists: nsys stats's -f and -o, comma lists
// or repeated, matched to the items in order; -o also takes "." and "@<command>"
// (stats/output_plan.h).
enum class OutputLists { kOne, kNsysLists };

// -j/--jobs: how many report files prof stats and prof analyze read at once.
void AddJobsOption(CLI::App* command, int* jobs);

void AddOutputOptions(CLI::App* command, const std::string& item, OutputLists lists,
                      stats::OutputOptions* options);

}  // namespace prof::cli
