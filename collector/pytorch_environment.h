// The program's variables for --pytorch (docs/pytorch.md): PROF_PYTORCH with the modes, and
// PYTHONPATH with prof's Python directory first, so that its sitecustomize.py runs when the
// interpreter starts (and chains to the user's own sitecustomize) without touching their files.
#pragma once

#include <string>
#include <vector>

namespace prof::collector {

// `modes`: the canonical --pytorch list (not empty). `pythonpath`: the PYTHONPATH the program would
// get otherwise (-e's or the inherited one; null or empty when none). Returns NAME=value entries.
std::vector<std::string> PytorchVariables(const std::string& modes, const std::string& library_dir,
                                          const char* pythonpath);

}  // namespace prof::collector
