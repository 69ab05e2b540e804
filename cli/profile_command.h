// `prof profile [options] <program> [args...]`: run a program under prof and write a report.
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeProfileCommand();

}  // namespace prof::cli
