// Parses an Itanium C++ ABI mangled name ("_Z...") into a NameTree: the part of the grammar that
// kernel and library symbols use (nested, local and unscoped names, templates, substitutions,
// lambdas, builtin and compound types, literals and simple expressions).
//
// Contract: returns nullopt for anything it does not parse — malformed input and constructs it
// does not know (vendor suffixes, vector types, most expressions) alike — so callers can fall back
// to another demangler. Never reads past the input; recursion depth is bounded. Pure function.
#pragma once

#include <optional>
#include <string_view>

#include "demangle/itanium_name_tree.h"

namespace prof::collector::itanium {

std::optional<NameTree> ParseMangledName(std::string_view mangled);

}  // namespace prof::collector::itanium
