// Kernel names as nsys writes them into CUPTI_ACTIVITY_KIND_KERNEL: the demangled name in nsys's
// spelling and the short (base) name, from the mangled name CUPTI reports.
//
// Contract:
// - Names that do not demangle (extern "C" kernels, cuBLAS's "sm80_xmma_..." names) are returned
//   unchanged as both demangled and short name, as nsys does.
// - The demangled name is prof's own demangler's (itanium_demangler.h), which prints nsys's
//   spelling, template parameters as "T1", "T2", ... and return types of function templates that
//   scope local entities included. Names it does not parse fall back to abi::__cxa_demangle's
//   output respelled (NsysSpelling below); docs/cuda.md lists what can still differ.
// - Pure functions of their input; no state.
#pragma once

#include <string>
#include <string_view>

namespace prof::collector {

struct KernelNames {
  std::string demangled;
  std::string short_name;
};

KernelNames KernelNamesOf(std::string_view mangled);

// Rewrites __cxa_demangle's output in nsys's spelling: "4" → "(int)4" and "2ul" →
// "(unsigned long)2" for integer template arguments, "{lambda(float)#1}" →
// "[lambda(float) (instance 1)]", "(anonymous namespace)" → "<unnamed>", "> >" → ">>",
// "operator()" → "operator ()", "char*" → "char *", "T&" → "T &", "T const&" → "const T &".
std::string NsysSpelling(std::string_view demangled);

// The base function name of a demangled name: without return type, scopes, template arguments and
// parameters ("void at::native::f<(int)4>(int, T2)" → "f").
std::string ShortKernelName(std::string_view demangled);

}  // namespace prof::collector
