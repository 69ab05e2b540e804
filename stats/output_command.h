// `prof stats -o @<command>`: a report's text fed to a shell command's stdin, as nsys does. The
// command inherits prof's stdout and stderr.
#pragma once

#include <string>

#include "common/status.h"

namespace prof::stats {

// Runs `command` with /bin/sh -c, writes `text` to its stdin and waits for it. Fails when it
// cannot start or exits with a non-zero status; a command that stops reading early (`head -1`)
// is not an error of prof's.
Status PipeToCommand(const std::string& command, const std::string& text);

}  // namespace prof::stats
