// Declares the shared output options (stats/output_options.h) on a subcommand, with help text
// that names what the command writes ("report" for prof stats, "rule" for prof analyze).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "stats/output_options.h"

namespace prof::cli {

void AddOutputOptions(CLI::App* command, const std::string& item, stats::OutputOptions* options);

}  // namespace prof::cli
