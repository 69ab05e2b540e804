// Whether prof's libraries can enter a program at all. A statically linked executable has no
// dynamic loader: LD_PRELOAD is ignored, and NVTX's dlopen of libprof_nvtx.so would bring a second
// libc into it. Its own calls cannot be traced; the dynamically linked programs it starts can.
#pragma once

#include <optional>
#include <string>

namespace prof::collector {

// The statically linked ELF executable that runs when the file at `program` (a path, already
// resolved through PATH) is executed: the file itself, or the interpreter its "#!" line names
// (one level; a script whose interpreter is a script counts as dynamic). nullopt when that
// executable has a dynamic loader (PT_INTERP) or cannot be read.
std::optional<std::string> StaticallyLinkedExecutable(const std::string& program);

}  // namespace prof::collector
