// How prof hands its already opened files to libdwfl: modules are reported by address range only
// (dwfl_report_module), and libdwfl's find_elf callback is answered with a counted reference to
// the ElfFile's handle, so libdwfl never opens a main file itself. Separate debug files (symbols
// of a stripped file, CFI) are found by libdwfl's standard find_debuginfo: /usr/lib/debug/
// .build-id/xx/yyyy.debug, .gnu_debuglink next to the file and under /usr/lib/debug, and the
// file's own MiniDebugInfo (.gnu_debugdata).
#pragma once

#include <cstdint>
#include <memory>

#include "collector/symbols/elf_file.h"

typedef struct Dwfl Dwfl;
typedef struct Dwfl_Module Dwfl_Module;

namespace prof::symbols {

struct DwflDeleter {
  void operator()(Dwfl* dwfl) const;
};
using DwflHandle = std::unique_ptr<Dwfl, DwflDeleter>;

// A Dwfl whose modules come from ReportFile. Null only when libdwfl cannot allocate.
DwflHandle NewDwfl();

// Reports `file` as loaded at `bias` (runtime address = file vaddr + bias). Call between
// dwfl_report_begin(_add) and dwfl_report_end. `file` must outlive the Dwfl. Null on failure
// (an address range that overlaps a module already reported, for one).
Dwfl_Module* ReportFile(Dwfl* dwfl, const ElfFile& file, uint64_t bias);

}  // namespace prof::symbols
