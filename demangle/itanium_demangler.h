// prof's own Itanium C++ ABI demangler, printing names the way nsys writes demangledName: "T1"
// for template parameters, "(int)4", "[lambda(float) (instance 1)]", "<unnamed>", ">>",
// "operator ()", "char *", "const T &", and the return types of function templates that scope
// local entities ("void f<int>(T1)::[lambda() (instance 1)]").
//
// Contract: nullopt for names it does not parse (see itanium_parser.h), so the caller can fall
// back to abi::__cxa_demangle. Pure functions; no state.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace prof::collector {

enum class DemangleStyle {
  kNsys,
  // Template parameters substituted and no return types on functions that scope local entities:
  // what NsysSpelling(abi::__cxa_demangle(name)) prints. Tests compare the two on a corpus of
  // library symbols, since only a few of nsys's own names are at hand.
  kSubstituted,
};

std::optional<std::string> DemangleItanium(std::string_view mangled, DemangleStyle style);

}  // namespace prof::collector
