// `prof profile --pytorch=autograd-nvtx|autograd-shapes-nvtx|functions-trace|none` (a comma list,
// nsys's names): which PyTorch ranges prof arranges inside the program at `import torch`
// (docs/pytorch.md). Checked here and turned into the canonical list the program reads.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "common/status.h"

namespace prof::cli {

// Adds --pytorch to `profile`, storing its text in *text (which must outlive parsing).
void RegisterPytorchFlag(CLI::App* profile, std::string* text);

// The modes of `text` in a fixed order, comma separated, each once; empty for `none`. Fails with
// one line naming the bad value and the accepted ones; `none` combined with a mode is an error.
Status ParsePytorchModes(const std::string& text, std::string* modes);

}  // namespace prof::cli
