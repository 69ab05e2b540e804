#include "demangle/itanium_demangler.h"

#include "demangle/itanium_parser.h"
#include "demangle/itanium_printer.h"

namespace prof::collector {

std::optional<std::string> DemangleItanium(std::string_view mangled, DemangleStyle style) {
  const std::optional<itanium::NameTree> tree = itanium::ParseMangledName(mangled);
  if (!tree) return std::nullopt;
  return itanium::PrintNameTree(*tree, style);
}

}  // namespace prof::collector
