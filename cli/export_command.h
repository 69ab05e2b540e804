// `prof export`: writes a report as a timeline (Trace Event Format JSON, Perfetto protobuf), as
// JSON lines, or as the SQLite file itself (docs/export.md).
#pragma once

#include <memory>

#include "cli/command.h"

namespace prof::cli {

std::unique_ptr<Command> MakeExportCommand();

}  // namespace prof::cli
