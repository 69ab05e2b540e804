// Prints a NameTree (itanium_parser.h) in nsys's spelling (itanium_demangler.h).
//
// Contract: nullopt when the tree cannot be printed in the style asked for (a template parameter
// with no template argument to substitute, output beyond 1 MiB, nesting beyond a fixed depth).
// Pure function.
#pragma once

#include <optional>
#include <string>

#include "demangle/itanium_demangler.h"
#include "demangle/itanium_name_tree.h"

namespace prof::collector::itanium {

std::optional<std::string> PrintNameTree(const NameTree& tree, DemangleStyle style);

}  // namespace prof::collector::itanium
