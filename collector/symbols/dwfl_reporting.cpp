#include "collector/symbols/dwfl_reporting.h"

#include <elfutils/libdwfl.h>

#include <cstdlib>
#include <cstring>

namespace prof::symbols {
namespace {

// find_elf: the module's user data is the ElfFile that ReportFile attached. The returned
// descriptor is -1: libdwfl uses *elfp and has nothing of prof's to close.
int FindElf(Dwfl_Module* module, void** user_data, const char* module_name, Dwarf_Addr base,
            char** file_name, Elf** elfp) {
  const auto* file = static_cast<const ElfFile*>(*user_data);
  if (file == nullptr) return -1;
  *elfp = file->NewReference();
  // libdwfl frees the name; find_debuginfo looks for .gnu_debuglink files next to it.
  *file_name = strdup(file->path().c_str());
  return -1;
}

const Dwfl_Callbacks kCallbacks = {
    FindElf, dwfl_standard_find_debuginfo,
    nullptr,  // section_address: only for ET_REL files, which are never mapped
    nullptr,  // debuginfo_path: libdwfl's default (/usr/lib/debug and next to the file)
};

}  // namespace

void DwflDeleter::operator()(Dwfl* dwfl) const { dwfl_end(dwfl); }

DwflHandle NewDwfl() { return DwflHandle(dwfl_begin(&kCallbacks)); }

Dwfl_Module* ReportFile(Dwfl* dwfl, const ElfFile& file, uint64_t bias) {
  // libdwfl derives the module's bias from its low address and the file's first segment
  // (rounded to the segment alignment the same way on both sides), so reporting the segments'
  // span moved by `bias` gives back exactly `bias`.
  Dwfl_Module* module = dwfl_report_module(dwfl, file.path().c_str(), file.low_vaddr() + bias,
                                           file.high_vaddr() + bias);
  if (module == nullptr) return nullptr;
  void** user_data = nullptr;
  dwfl_module_info(module, &user_data, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  *user_data = const_cast<ElfFile*>(&file);
  return module;
}

}  // namespace prof::symbols
