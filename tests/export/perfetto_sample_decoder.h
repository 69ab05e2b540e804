// Reads the CPU samples of a Perfetto trace written by `prof export --type perfetto` back:
// PerfSample packets resolved through the sequence's interned function names, mappings (path
// components joined with '/'), frames and callstacks, as Perfetto's trace processor resolves them.
#pragma once

#include <string>
#include <vector>

namespace prof::exporter::test {

// One line per sample, in file order:
//   "<ts> <pid>/<tid> cpu<cpu> <frame>;<frame>..." (outermost frame first), each frame
//   "<function> [<mapping>] <native|python>";
// problems (an unknown interned id, a sample without callstack) become "error ..." lines.
std::vector<std::string> DecodePerfettoSamples(const std::string& bytes);

}  // namespace prof::exporter::test
